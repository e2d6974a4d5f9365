// POST /api/dashboard/two-factor/enable { code }: the first code turns it on; the answer carries the
// recovery codes, shown once (lib/two-factor/confirm-enrollment.ts).
import { dashboardApi } from "@/lib/dashboard/route";
import { confirmEnrollment } from "@/lib/two-factor/confirm-enrollment";
import { ConfirmTwoFactorBody } from "@/lib/two-factor/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi(
  { role: "viewer", body: ConfirmTwoFactorBody, ownAccount: true, secretInResponse: true },
  ({ tx, dashboard, body, origin }) => confirmEnrollment(tx, { userId: dashboard.user.id, sid: dashboard.sid, origin }, body),
);
