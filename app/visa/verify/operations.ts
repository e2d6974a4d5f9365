// The operations of /visa/verify (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { VerifyRequestBody } from "@/lib/agent-identity/signed-request";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "verifyVisaSignature",
  summary: "Was this request, received by the merchant's own server, signed by a registered Visa agent?",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  body: VerifyRequestBody,
  idempotent: false,
  bodyLimitBytes: 512 * 1024,
  responses: { 200: { description: "The verdict" } },
});
