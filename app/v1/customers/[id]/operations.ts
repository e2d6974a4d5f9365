// The operations of /v1/customers/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CustomerObject } from "@/lib/customers/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getCustomer",
  summary: "Retrieve a customer",
  tag: "Customers",
  auth: "secret",
  permission: ["customers", "read"],
  db: "sql",
  responses: { 200: CustomerObject },
  sdk: { resource: "customers", method: "retrieve" },
});
