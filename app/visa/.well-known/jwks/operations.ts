// The operations of /visa/.well-known/jwks (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getVisaJwks",
  summary: "Visa's key store: every active Visa agent key (kid = the signatures' keyid)",
  tag: "Visa",
  auth: "public",
  responses: { 200: { description: "A JWK Set" } },
});
