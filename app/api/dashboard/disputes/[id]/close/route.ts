// POST /api/dashboard/disputes/:id/close: the dashboard's accept action (closeDispute, as POST /v1/disputes/:id/close).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { closeDispute } from "@/lib/disputes/close-dispute";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  closeDispute(tx, scope, params.id),
);
