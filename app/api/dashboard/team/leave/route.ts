// POST /api/dashboard/team/leave: the signed-in user leaves the selected merchant's team (not its last owner).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { teamActor } from "@/lib/dashboard/team-actor";
import { removeMember } from "@/lib/team/remove-member";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "viewer", body: z.object({}).strict() }, ({ tx, dashboard, origin }) =>
  removeMember(tx, teamActor(dashboard), dashboard.user.id, origin),
);
