// POST /api/dashboard/team/invitations: invite an email with a role (docs/dashboard.md, "Team").
import { dashboardApi } from "@/lib/dashboard/route";
import { teamActor } from "@/lib/dashboard/team-actor";
import { inviteMember } from "@/lib/team/invite-member";
import { InviteMemberBody } from "@/lib/team/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: InviteMemberBody, status: 201 }, ({ tx, dashboard, body, origin }) =>
  inviteMember(tx, teamActor(dashboard), body, origin),
);
