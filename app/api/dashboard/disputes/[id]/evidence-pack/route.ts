// GET /api/dashboard/disputes/:id/evidence-pack: the dispute's evidence pack as its signed PDF (the dashboard's
// download; the same document as GET /v1/disputes/:id/evidence_pack.pdf). Every member may read it.
import { dashboardApi } from "@/lib/dashboard/route";
import { getEvidencePackPdf } from "@/lib/disputes/get-evidence-pack";

export const dynamic = "force-dynamic";

export const GET = dashboardApi({ role: "viewer" }, async ({ tx, scope, params }) => {
  const { bytes, filename } = await getEvidencePackPdf(tx, scope, params.id);
  return new Response(Buffer.from(bytes), {
    headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${filename}"` },
  });
});
