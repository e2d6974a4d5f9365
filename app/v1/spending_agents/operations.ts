// The operations of /v1/spending_agents (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { CreateSpendingAgentBody, ListSpendingAgentsQuery, SpendingAgentList, SpendingAgentObject } from "@/lib/spending-policies/schemas";

export const POST = operation({
  operationId: "createSpendingAgent",
  summary: "Create a spending agent (the payer's key)",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "write"],
  body: CreateSpendingAgentBody,
  status: 201,
  bodyName: "CreateSpendingAgentParams",
  responses: { 201: SpendingAgentObject },
  sdk: { resource: "spendingAgents", method: "create", doc: "The PAYER creates an agent whose credentials its spending policy governs." },
});

export const GET = operation({
  operationId: "listSpendingAgents",
  summary: "List the payer's spending agents",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "read"],
  query: ListSpendingAgentsQuery,
  responses: { 200: SpendingAgentList },
  sdk: { resource: "spendingAgents", method: "list", params: "params?: T.ListSpendingAgentsParams" },
});
