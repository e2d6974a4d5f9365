// The operations of /v1/balance (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { BalanceObject } from "@/lib/ledger/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getBalance",
  summary: "Pending and payable funds per currency",
  tag: "Balance",
  auth: "secret",
  permission: ["balance", "read"],
  responses: { 200: BalanceObject },
  sdk: { resource: "balance", method: "retrieve" },
});
