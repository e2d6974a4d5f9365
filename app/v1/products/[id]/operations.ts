// The operations of /v1/products/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ProductObject, UpdateProductBody } from "@/lib/products/schemas";

export const GET = operation({
  operationId: "getProduct",
  summary: "Retrieve a product",
  tag: "Products",
  auth: "secret",
  permission: ["products", "read"],
  responses: { 200: ProductObject },
  sdk: { resource: "products", method: "retrieve" },
});

export const POST = operation({
  operationId: "updateProduct",
  summary: "Update a product",
  tag: "Products",
  auth: "secret",
  permission: ["products", "write"],
  body: UpdateProductBody,
  bodyName: "UpdateProductParams",
  responses: { 200: ProductObject },
  sdk: { resource: "products", method: "update" },
});

export const DELETE = operation({
  operationId: "archiveProduct",
  summary: "Archive a product (active: false)",
  tag: "Products",
  auth: "secret",
  permission: ["products", "write"],
  responses: { 200: ProductObject },
  sdk: { resource: "products", method: "archive", doc: "Archives the product (`active: false`); it stays readable, checkouts refuse it." },
});
