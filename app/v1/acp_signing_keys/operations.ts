// The operations of /v1/acp_signing_keys (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { AcpSigningKeyList, AcpSigningKeyObject, CreateAcpSigningKeyBody, ListAcpSigningKeysQuery } from "@/lib/acp/signing-keys";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createAcpSigningKey",
  summary: "Register an agent platform's ACP request-signing public key (from then on /acp requests must be signed)",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  body: CreateAcpSigningKeyBody,
  status: 201,
  bodyName: "CreateAcpSigningKeyParams",
  responses: { 201: AcpSigningKeyObject },
  sdk: { resource: "acpSigningKeys", method: "create" },
});

export const GET = operation({
  operationId: "listAcpSigningKeys",
  summary: "List ACP request-signing keys",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "read"],
  query: ListAcpSigningKeysQuery,
  responses: { 200: AcpSigningKeyList },
  sdk: { resource: "acpSigningKeys", method: "list", params: "params?: T.ListParams" },
});
