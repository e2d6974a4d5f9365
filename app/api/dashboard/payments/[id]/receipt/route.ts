// GET /api/dashboard/payments/:id/receipt -> the payment's signed receipt as a download (receipt-<pi>.jws, the
// compact JWS as GET /v1/payment_intents/:id/receipt answers it; docs/receipts.md).
import { dashboardApi } from "@/lib/dashboard/route";
import { getReceipt } from "@/lib/receipts/get-receipt";

export const dynamic = "force-dynamic";

export const GET = dashboardApi({ role: "viewer" }, async ({ tx, scope, params }) => {
  const receipt = await getReceipt(tx, scope, params.id);
  return new Response(receipt.jws, {
    headers: {
      "Content-Type": "application/jose",
      "Content-Disposition": `attachment; filename="receipt-${receipt.paymentIntentId}.jws"`,
    },
  });
});
