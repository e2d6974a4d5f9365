// The operations of /mastercard/agents/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getMastercardAgentKey",
  summary: "Retrieve one of the caller's Mastercard agent keys",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "read"],
  responses: { 200: { description: "The agent key" } },
});
