// The operations of /.well-known/jwks.json (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getReceiptJwks",
  summary: "The keys that verify the service's receipts (a JWK Set: the active key and those retired within the retention)",
  tag: "Receipts",
  auth: "public",
  responses: { 200: { description: "A JWK Set (RFC 7517)" } },
});
