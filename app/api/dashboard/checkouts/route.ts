// POST /api/dashboard/checkouts: a checkout opened from the dashboard; the same openCheckout (and body schema) as POST /v1/checkouts.
// It is a pay link for the hosted page, so its source is "pay_page".
import { OpenCheckoutBody } from "@/lib/checkouts/schemas";
import { openCheckout } from "@/lib/checkouts/open-checkout";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: OpenCheckoutBody, status: 201 }, ({ tx, scope, body }) =>
  openCheckout(tx, scope, body, { source: "pay_page" }),
);
