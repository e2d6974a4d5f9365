// The operations of /mastercard/.well-known/http-message-signatures-directory (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getMastercardKeyDirectory",
  summary: "The Mastercard network's Web Bot Auth key directory: every active agent key",
  tag: "Mastercard",
  auth: "public",
  responses: { 200: { description: "An HTTP message signatures directory" } },
});
