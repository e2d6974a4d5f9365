// The operations of /v1/acp_signing_keys/{id}/revoke (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { AcpSigningKeyObject, RevokeAcpSigningKeyBody } from "@/lib/acp/signing-keys";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "revokeAcpSigningKey",
  summary: "Revoke an ACP request-signing key",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  body: RevokeAcpSigningKeyBody,
  responses: { 200: AcpSigningKeyObject },
  sdk: { resource: "acpSigningKeys", method: "revoke", ids: "keyId" },
});
