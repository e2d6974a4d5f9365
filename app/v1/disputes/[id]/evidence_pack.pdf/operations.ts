// The operations of /v1/disputes/{id}/evidence_pack.pdf (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getDisputeEvidencePackPdf",
  summary: "The dispute's agent evidence pack, printed (application/pdf); the signed JSON is GET .../evidence_pack",
  tag: "Disputes",
  auth: "secret",
  permission: ["disputes", "read"],
  responses: { 200: { description: "The evidence pack as a PDF document", contentType: "application/pdf" } },
});
