// The operations of /visa/agents (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ListAgentsQuery, RegisterAgentBody } from "@/lib/agent-identity/agent-keys";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "listVisaAgentKeys",
  summary: "List the caller's Visa agent keys",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "read"],
  query: ListAgentsQuery,
  responses: { 200: { description: "A list of agent keys" } },
});

export const POST = operation({
  operationId: "registerVisaAgentKey",
  summary: "Register one of the caller's agent keys on Visa, the request signed by the key over a challenge",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  body: RegisterAgentBody,
  status: 201,
  responses: { 201: { description: "The agent key" } },
});
