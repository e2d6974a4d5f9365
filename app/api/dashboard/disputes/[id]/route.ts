// POST /api/dashboard/disputes/:id: the dashboard's evidence and submit action; the same updateDispute (and body schema)
// as POST /v1/disputes/:id. Admins and owners respond to disputes (docs/dashboard.md, "Team").
import { dashboardApi } from "@/lib/dashboard/route";
import { UpdateDisputeBody } from "@/lib/disputes/schemas";
import { updateDispute } from "@/lib/disputes/update-dispute";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: UpdateDisputeBody }, ({ tx, scope, params, body }) =>
  updateDispute(tx, scope, params.id, body),
);
