// The operations of /visa/agents/{id}/revoke (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "revokeVisaAgentKey",
  summary: "Revoke a Visa agent key: every later signature by it is refused",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  responses: { 200: { description: "The revoked agent key" } },
});
