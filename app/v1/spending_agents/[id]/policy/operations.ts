// The operations of /v1/spending_agents/{id}/policy (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { SetSpendingPolicyBody, SpendingPolicyObject } from "@/lib/spending-policies/schemas";

export const POST = operation({
  operationId: "setSpendingPolicy",
  summary: "Set a spending agent's policy (`default`: the payer's default policy)",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "write"],
  body: SetSpendingPolicyBody,
  bodyName: "SetSpendingPolicyParams",
  responses: { 200: SpendingPolicyObject },
  sdk: { resource: "spendingAgents", method: "setPolicy", ids: "spendingAgentId" },
});
