// The Team page (docs/dashboard.md, "Team"): the merchant's members and their roles, pending invitations
// and the invite form. Everyone in the team sees it; admins and owners manage it (the buttons and selects
// are only rendered for them, and the server checks every action again); only owners touch the owner role.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { InviteMemberButton } from "@/components/dashboard/team/InviteMemberButton";
import { MemberRoleSelect } from "@/components/dashboard/team/MemberRoleSelect";
import { RemoveMemberButton } from "@/components/dashboard/team/RemoveMemberButton";
import { RevokeInvitationButton } from "@/components/dashboard/team/RevokeInvitationButton";
import { hasRole } from "@/lib/accounts/roles";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { requireDashboard } from "@/lib/dashboard/session";
import { listMembers, listPendingInvitations } from "@/lib/team/list-team";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const { scope, role, user, merchantName } = await requireDashboard();
  const manage = hasRole(role, "admin");
  const isOwner = role === "owner";
  const db = getDb();
  const [members, invitations] = await Promise.all([listMembers(db, scope.merchantId), listPendingInvitations(db, scope.merchantId)]);
  const rows = members.map((member) => ({ ...member, id: member.userId }));
  return (
    <>
      <PageHeader
        title="Team"
        description={`Who can use the ${merchantName} dashboard, and with which role. The same in test and live mode.`}
        actions={manage ? <InviteMemberButton canGrantOwner={isOwner} /> : null}
      />
      <div className="flex flex-col gap-6">
        <Section title="Members" flush>
          <DataTable
            caption="Members"
            rows={rows}
            empty={<EmptyState title="No members" description="Invite someone to join this team." />}
            columns={[
              {
                header: "Member",
                cell: (member) => (
                  <span className="flex flex-col">
                    <span className="break-all font-medium text-slate-900" data-testid="member-email">
                      {member.email}
                      {member.userId === user.id ? <span className="text-slate-600"> (you)</span> : null}
                    </span>
                    {member.name ? <span className="text-xs text-slate-600">{member.name}</span> : null}
                  </span>
                ),
              },
              {
                header: "Role",
                cell: (member) =>
                  manage && member.userId !== user.id ? (
                    <MemberRoleSelect userId={member.userId} email={member.email} role={member.role} canGrantOwner={isOwner} />
                  ) : (
                    <span data-testid="member-role">{member.role}</span>
                  ),
              },
              { header: "Joined", cell: (member) => formatDateTime(member.joinedAt), hideOnMobile: true },
              {
                header: "Actions",
                align: "right",
                pinned: true,
                cell: (member) =>
                  member.userId === user.id ? (
                    <RemoveMemberButton userId={member.userId} email={member.email} self />
                  ) : manage && (isOwner || member.role !== "owner") ? (
                    <RemoveMemberButton userId={member.userId} email={member.email} self={false} />
                  ) : (
                    "—"
                  ),
              },
            ]}
          />
        </Section>
        <Section title="Pending invitations" flush>
          <DataTable
            caption="Pending invitations"
            rows={invitations}
            empty={
              <EmptyState
                title="No pending invitations"
                description="Invitations appear here until they are accepted, revoked or expire."
              />
            }
            columns={[
              { header: "Email", cell: (invitation) => <span className="break-all">{invitation.email}</span> },
              { header: "Role", cell: (invitation) => invitation.role },
              { header: "Invited by", cell: (invitation) => invitation.invitedBy ?? "—", hideOnMobile: true },
              { header: "Expires", cell: (invitation) => formatDateTime(invitation.expiresAt), hideOnMobile: true },
              ...(manage
                ? [
                    {
                      header: "Actions",
                      align: "right" as const,
                      pinned: true,
                      cell: (invitation: (typeof invitations)[number]) => (
                        <RevokeInvitationButton id={invitation.id} email={invitation.email} />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Section>
      </div>
    </>
  );
}
