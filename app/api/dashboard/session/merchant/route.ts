// POST /api/dashboard/session/merchant: the dashboard session selects another merchant the user belongs to
// (the switcher); one the user is not a member of is refused as missing (404), by the UPDATE itself.
import { selectSessionMerchant } from "@/lib/auth/sessions";
import { dashboardApi } from "@/lib/dashboard/route";
import { NotFoundError } from "@/lib/errors";
import { SwitchMerchantBody } from "@/lib/team/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "viewer", body: SwitchMerchantBody }, async ({ tx, dashboard, body }) => {
  if (!(await selectSessionMerchant(tx, dashboard.sid, dashboard.user.id, body.merchantId)))
    throw new NotFoundError("merchant", body.merchantId);
  return { merchantId: body.merchantId };
});
