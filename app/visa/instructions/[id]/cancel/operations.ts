// The operations of /visa/instructions/{id}/cancel (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "cancelVisaInstruction",
  summary: "Cancel a purchase instruction: no more credentials are drawn or paid with",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  responses: { 200: { description: "The instruction" } },
});
