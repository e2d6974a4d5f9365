// The operations of /mastercard/agents (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ListAgentsQuery, RegisterAgentBody } from "@/lib/agent-identity/agent-keys";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "listMastercardAgentKeys",
  summary: "List the caller's Mastercard agent keys",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "read"],
  query: ListAgentsQuery,
  responses: { 200: { description: "A list of agent keys" } },
});

export const POST = operation({
  operationId: "registerMastercardAgentKey",
  summary: "Register one of the caller's agent keys on Mastercard, the request signed by the key over a challenge",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  body: RegisterAgentBody,
  status: 201,
  responses: { 201: { description: "The agent key" } },
});
