// The operations of /mastercard/agents/{id}/directory (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getMastercardAgentDirectory",
  summary: "One Mastercard agent's key directory (what its Signature-Agent names)",
  tag: "Mastercard",
  auth: "public",
  responses: { 200: { description: "An HTTP message signatures directory" } },
});
