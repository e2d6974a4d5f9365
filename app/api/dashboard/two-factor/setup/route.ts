// POST /api/dashboard/two-factor/setup: a new TOTP secret waiting for its first code (lib/two-factor/start-enrollment.ts).
// The signed-in user's own account: allowed in live mode without a second factor (that is what it sets up).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { startEnrollment } from "@/lib/two-factor/start-enrollment";

export const dynamic = "force-dynamic";

export const POST = dashboardApi(
  { role: "viewer", body: z.object({}).strict(), ownAccount: true, secretInResponse: true },
  ({ tx, dashboard }) => startEnrollment(tx, dashboard.user),
);
