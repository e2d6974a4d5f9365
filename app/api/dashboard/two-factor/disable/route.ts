// POST /api/dashboard/two-factor/disable { password } or { code }: turns it off (lib/two-factor/disable-two-factor.ts).
// Its own transactions: the password is hashed before one opens, a wrong code's count commits.
import { dashboardApi } from "@/lib/dashboard/route";
import { disableTwoFactor } from "@/lib/two-factor/disable-two-factor";
import { DisableTwoFactorBody } from "@/lib/two-factor/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi(
  { role: "viewer", body: DisableTwoFactorBody, ownAccount: true, transaction: false },
  ({ dashboard, body, origin }) => disableTwoFactor({ userId: dashboard.user.id, origin }, body),
);
