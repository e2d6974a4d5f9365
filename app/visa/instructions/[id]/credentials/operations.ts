// The operations of /visa/instructions/{id}/credentials (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { CredentialRequestBody } from "@/lib/visa/schemas";

export const POST = operation({
  operationId: "requestVisaCredential",
  summary: "A single-use credential (vtok_) for one merchant and amount (payer key + TAP signature, tag credential-request)",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  body: CredentialRequestBody,
  status: 201,
  idempotent: false,
  responses: { 201: { description: "The credential" } },
});
