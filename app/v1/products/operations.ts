// The operations of /v1/products (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { CreateProductBody, ListProductsQuery, ProductList, ProductObject } from "@/lib/products/schemas";

export const POST = operation({
  operationId: "createProduct",
  summary: "Create a product",
  tag: "Products",
  auth: "secret",
  permission: ["products", "write"],
  body: CreateProductBody,
  status: 201,
  bodyName: "CreateProductParams",
  responses: { 201: ProductObject },
  sdk: { resource: "products", method: "create" },
});

export const GET = operation({
  operationId: "listProducts",
  summary: "List products",
  tag: "Products",
  auth: "secret",
  permission: ["products", "read"],
  query: ListProductsQuery,
  responses: { 200: ProductList },
  sdk: { resource: "products", method: "list", params: "params?: T.ListProductsParams" },
});
