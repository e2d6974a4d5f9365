// The operations of /mastercard/agentic_tokens/{id}/revoke (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "revokeMastercardAgenticToken",
  summary: "Revoke an agentic token: its next use is declined (token_revoked)",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  responses: { 200: { description: "The agentic token" } },
});
