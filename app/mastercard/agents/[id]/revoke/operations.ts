// The operations of /mastercard/agents/{id}/revoke (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "revokeMastercardAgentKey",
  summary: "Revoke a Mastercard agent key: every later signature by it is refused",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  responses: { 200: { description: "The revoked agent key" } },
});
