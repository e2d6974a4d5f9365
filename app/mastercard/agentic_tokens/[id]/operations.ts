// The operations of /mastercard/agentic_tokens/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getMastercardAgenticToken",
  summary: "Retrieve one of the payer's agentic tokens",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "read"],
  responses: { 200: { description: "The agentic token" } },
});
