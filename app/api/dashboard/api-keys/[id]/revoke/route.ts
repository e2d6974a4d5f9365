// POST /api/dashboard/api-keys/:id/revoke: the key stops working at once (401 on its next request). Logged as api_key_revoked.
import { z } from "zod";
import { revokeApiKey } from "@/lib/merchants/api-keys";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: z.object({}).strict() }, ({ tx, scope, params, dashboard, origin }) =>
  revokeApiKey(tx, scope, params.id, { userId: dashboard.user.id, origin }),
);
