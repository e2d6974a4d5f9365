// The operations of /mastercard/agents/{id}/approve (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "approveMastercardAgentKey",
  summary: "Know your agent completes: a pending Mastercard agent becomes active (test mode)",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  responses: { 200: { description: "The agent key" } },
});
