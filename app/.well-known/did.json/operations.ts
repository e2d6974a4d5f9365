// The operations of /.well-known/did.json (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getServiceDidDocument",
  summary: "The deployment's did:web document: the receipt keys as verification methods did:web:<host>#<kid>",
  tag: "Receipts",
  auth: "public",
  responses: { 200: { description: "A DID document (did:web)" } },
});
