// The operations of /v1/customers (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CreateCustomerBody, CustomerList, CustomerObject, ListCustomersQuery } from "@/lib/customers/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createCustomer",
  summary: "Create a customer",
  tag: "Customers",
  auth: "secret",
  permission: ["customers", "write"],
  body: CreateCustomerBody,
  status: 201,
  bodyName: "CreateCustomerParams",
  responses: { 201: CustomerObject },
  sdk: { resource: "customers", method: "create", params: "params: T.CreateCustomerParams = {}" },
});

export const GET = operation({
  operationId: "listCustomers",
  summary: "List customers",
  tag: "Customers",
  auth: "secret",
  permission: ["customers", "read"],
  query: ListCustomersQuery,
  responses: { 200: CustomerList },
  sdk: { resource: "customers", method: "list", params: "params?: T.ListParams" },
});
