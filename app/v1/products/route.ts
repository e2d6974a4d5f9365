import { api } from "@/lib/http/api";
import { createProduct } from "@/lib/products/create-product";
import { listProducts } from "@/lib/products/list-products";
import { CreateProductBody, ListProductsQuery } from "@/lib/products/schemas";

export const POST = api(
  { auth: "secret", permission: ["products", "write"], body: CreateProductBody, status: 201 },
  ({ tx, principal, body }) => createProduct(tx, principal, body),
);

export const GET = api({ auth: "secret", permission: ["products", "read"], query: ListProductsQuery }, ({ tx, principal, query }) =>
  listProducts(tx, principal, query),
);

export const dynamic = "force-dynamic";
