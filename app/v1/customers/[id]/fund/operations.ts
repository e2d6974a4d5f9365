// The operations of /v1/customers/{id}/fund (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { FundTestWalletBody, TestWalletObject } from "@/lib/customers/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "fundCustomer",
  summary: "Fund a customer's test wallet (test mode)",
  tag: "Customers",
  auth: "secret",
  permission: ["customers", "write"],
  body: FundTestWalletBody,
  bodyName: "FundCustomerParams",
  responses: { 200: TestWalletObject },
  sdk: { resource: "customers", method: "fund", returns: "T.Customer", doc: "Test mode only: tops up the customer's test wallet." },
});
