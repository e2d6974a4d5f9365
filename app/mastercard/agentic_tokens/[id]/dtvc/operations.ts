// The operations of /mastercard/agentic_tokens/{id}/dtvc (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "requestMastercardDtvc",
  summary: "A single-use Dynamic Token Verification Code for one purchase (payer key + Web Bot Auth signature)",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  idempotent: false,
  responses: { 200: { description: "The code" } },
});
