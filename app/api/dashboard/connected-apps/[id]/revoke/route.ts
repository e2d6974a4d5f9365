// POST /api/dashboard/connected-apps/:id/revoke: the app's tokens stop working at once (401 on its next /mcp call).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { revokeConnectedApp } from "@/lib/oauth/connected-apps";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: z.object({}).strict() }, ({ tx, scope, params, dashboard, origin }) =>
  revokeConnectedApp(tx, scope, params.id, { userId: dashboard.user.id, origin }),
);
