// PATCH /api/dashboard/team/members/:userId (change the role) and DELETE (remove from the team).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { teamActor } from "@/lib/dashboard/team-actor";
import { changeRole } from "@/lib/team/change-role";
import { removeMember } from "@/lib/team/remove-member";
import { ChangeRoleBody } from "@/lib/team/schemas";

export const dynamic = "force-dynamic";

export const PATCH = dashboardApi({ role: "admin", body: ChangeRoleBody }, ({ tx, dashboard, params, body, origin }) =>
  changeRole(tx, teamActor(dashboard), params.id, body.role, origin),
);

export const DELETE = dashboardApi({ role: "admin", body: z.object({}).strict() }, ({ tx, dashboard, params, origin }) =>
  removeMember(tx, teamActor(dashboard), params.id, origin),
);
