// GET /api/dashboard/payments/export?status=&source= -> the payments the page's filters match, as a CSV
// download streamed page by page (lib/dashboard/payments-csv.ts). An unknown filter value is ignored, as on the page.
import { getDb } from "@/lib/db";
import { dashboardApi } from "@/lib/dashboard/route";
import { paymentsCsv } from "@/lib/dashboard/payments-csv";
import { PAYMENT_SOURCES } from "@/lib/payment-sources";
import { PAYMENT_INTENT_STATUSES } from "@/lib/payments/transitions";

export const dynamic = "force-dynamic";

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

// The pool, not the handler's `tx`: the body is read after the handler returned (scoped to `scope`, authorised by now).
export const GET = dashboardApi({ role: "viewer" }, async ({ scope, dashboard, query }) => {
  const filters = { status: oneOf(PAYMENT_INTENT_STATUSES, query.get("status")), source: oneOf(PAYMENT_SOURCES, query.get("source")) };
  const { body, rows, truncated } = await paymentsCsv(getDb(), scope, filters);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="payments-${dashboard.mode}-${day}.csv"`,
      "X-Export-Rows": String(rows),
      "X-Export-Truncated": String(truncated),
    },
  });
});
