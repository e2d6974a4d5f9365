// The operations of /visa/instructions/{id}/authenticate (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { AuthenticateBody } from "@/lib/visa/schemas";

export const POST = operation({
  operationId: "authenticateVisaInstruction",
  summary: "The consumer's passkey step for a pending instruction (test mode)",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  body: AuthenticateBody,
  responses: { 200: { description: "The instruction" } },
});
