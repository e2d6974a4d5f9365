// The operations of /v1/spending_agents/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { DeletedSpendingAgent, SpendingAgentObject, UpdateSpendingAgentBody } from "@/lib/spending-policies/schemas";

export const GET = operation({
  operationId: "getSpendingAgent",
  summary: "Retrieve a spending agent",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "read"],
  responses: { 200: SpendingAgentObject },
  sdk: { resource: "spendingAgents", method: "retrieve" },
});

export const POST = operation({
  operationId: "updateSpendingAgent",
  summary: "Update a spending agent's name, description or metadata",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "write"],
  body: UpdateSpendingAgentBody,
  bodyName: "UpdateSpendingAgentParams",
  responses: { 200: SpendingAgentObject },
  sdk: { resource: "spendingAgents", method: "update", ids: "spendingAgentId" },
});

export const DELETE = operation({
  operationId: "deleteSpendingAgent",
  summary: "Delete (detach) a spending agent: credentials naming it are refused from then on",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "write"],
  responses: { 200: DeletedSpendingAgent },
  sdk: { resource: "spendingAgents", method: "del", ids: "spendingAgentId" },
});
