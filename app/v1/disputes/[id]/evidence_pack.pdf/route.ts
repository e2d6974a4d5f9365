// GET /v1/disputes/:id/evidence_pack.pdf (docs/disputes.md, "The evidence pack"): the pack printed, same key and permission.
import { api } from "@/lib/http/api";
import { getEvidencePackPdf } from "@/lib/disputes/get-evidence-pack";
import * as operation from "./operations";

export const GET = api(operation.GET, async ({ tx, principal, params }) => {
  const pdf = await getEvidencePackPdf(tx, principal, params.id);
  return new Response(Buffer.from(pdf.bytes), {
    headers: { "content-type": "application/pdf", "content-disposition": `inline; filename="${pdf.filename}"` },
  });
});

export const dynamic = "force-dynamic";
