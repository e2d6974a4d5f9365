// The operations of /v1/spending_agents/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { SpendingAgentObject } from "@/lib/spending-policies/schemas";

export const GET = operation({
  operationId: "getSpendingAgent",
  summary: "Retrieve a spending agent",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "read"],
  responses: { 200: SpendingAgentObject },
  sdk: { resource: "spendingAgents", method: "retrieve" },
});
