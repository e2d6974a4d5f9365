// GET /v1/disputes/:id/evidence_pack and its printed twin (docs/disputes.md, "The evidence pack"): assembled and signed
// on every request, so it shows what the service holds now (a webhook retried since, a refund); a submission stores the
// JWS it attached.
import type { Db } from "../db";
import { env } from "../env";
import type { Scope } from "../scope";
import { buildEvidencePack } from "./evidence-pack";
import { evidencePackPdf } from "./evidence-pdf";

export const evidencePackPdfUrl = (disputeId: string) => `${env.BASE_URL}/v1/disputes/${disputeId}/evidence_pack.pdf`;

export async function getEvidencePack(db: Db, scope: Scope, disputeId: string) {
  const { document, jws } = await buildEvidencePack(db, scope, disputeId);
  return { object: "evidence_pack" as const, dispute: document.dispute.id, jws, pdfUrl: evidencePackPdfUrl(document.dispute.id), document };
}

/** The PDF's bytes and a file name for it. */
export async function getEvidencePackPdf(db: Db, scope: Scope, disputeId: string): Promise<{ bytes: Uint8Array; filename: string }> {
  const { document, jws } = await buildEvidencePack(db, scope, disputeId);
  return { bytes: await evidencePackPdf(document, jws), filename: `evidence-pack-${document.dispute.id}.pdf` };
}
