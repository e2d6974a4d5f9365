// The operations of /ap2/{merchantId}/jwks.json (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getAp2Jwks",
  summary: "The merchant's AP2 CartMandate signing keys (a JWK Set)",
  tag: "AP2",
  auth: "public",
  responses: { 200: { description: "A JWK Set" } },
});
