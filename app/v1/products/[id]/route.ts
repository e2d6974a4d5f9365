// GET a product, POST updates it (Stripe's update verb), DELETE archives it (active: false; docs/products.md).
import { api } from "@/lib/http/api";
import { getProduct } from "@/lib/products/get-product";
import { UpdateProductBody } from "@/lib/products/schemas";
import { archiveProduct, updateProduct } from "@/lib/products/update-product";

export const GET = api({ auth: "secret", permission: ["products", "read"] }, ({ tx, principal, params }) =>
  getProduct(tx, principal, params.id),
);

export const POST = api({ auth: "secret", permission: ["products", "write"], body: UpdateProductBody }, ({ tx, principal, params, body }) =>
  updateProduct(tx, principal, params.id, body),
);

export const DELETE = api({ auth: "secret", permission: ["products", "write"] }, ({ tx, principal, params }) =>
  archiveProduct(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
