// The operations of /v1/disputes/{id}/evidence_pack (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { EvidencePackObject } from "@/lib/disputes/schemas";

export const GET = operation({
  operationId: "getDisputeEvidencePack",
  summary: "The dispute's agent evidence pack: a JSON document signed by the service (JWS), and its PDF's address",
  tag: "Disputes",
  auth: "secret",
  permission: ["disputes", "read"],
  responses: { 200: EvidencePackObject },
  sdk: { resource: "disputes", method: "evidencePack", ids: "disputeId" },
});
