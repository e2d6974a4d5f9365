// The operations of /visa/instructions/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getVisaInstruction",
  summary: "Retrieve one of the payer's purchase instructions",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "read"],
  responses: { 200: { description: "The instruction" } },
});
