// POST /api/dashboard/team/invitations/:id/revoke: a pending invitation's link stops working.
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { teamActor } from "@/lib/dashboard/team-actor";
import { revokeInvitation } from "@/lib/team/revoke-invitation";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: z.object({}).strict() }, ({ tx, dashboard, params, origin }) =>
  revokeInvitation(tx, teamActor(dashboard), params.id, origin),
);
