// An admin (or owner) invites an email with a role: a pending invitation (its token stored hashed, working
// for 7 days) and the mail with its link, with the activity row, in the caller's one transaction. Only an
// owner may invite an owner. A newer invitation to the same address replaces a pending one.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import type { Role } from "../accounts/roles";
import type { Db } from "../db";
import { requireRole } from "../accounts/require-role";
import type { TeamActor } from "./actor";
import { env } from "../env";
import { ConflictError } from "../errors";
import { createId } from "../ids";
import { queueMail } from "../mail/outbox";
import { hashInvitationToken, INVITATION_TTL_SECONDS, newInvitationToken } from "./tokens";

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

export async function inviteMember(
  tx: Db,
  actor: TeamActor,
  input: { email: string; role: Role },
  origin: RequestOrigin,
): Promise<InvitationView> {
  if (input.role === "owner") requireRole(actor, "owner");
  const merchantId = actor.merchantId;
  const member = await tx.membership.findFirst({ where: { merchantId, user: { email: input.email } }, select: { userId: true } });
  if (member) throw new ConflictError(`${input.email} is already a member of this team.`, { reason: "already_member" });
  const now = new Date();
  await tx.invitation.updateMany({
    where: { merchantId, email: input.email, acceptedAt: null, revokedAt: null },
    data: { revokedAt: now },
  });
  const token = newInvitationToken();
  const invitation = await tx.invitation.create({
    data: {
      id: createId("invitation"),
      merchantId,
      email: input.email,
      role: input.role,
      tokenHash: hashInvitationToken(token),
      invitedById: actor.userId,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
    },
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true },
  });
  const link = `${env.BASE_URL.replace(/\/$/, "")}/invitations/accept?token=${encodeURIComponent(token)}`;
  await queueMail(tx, {
    to: input.email,
    kind: "invitation",
    subject: `${actor.email} invited you to ${actor.merchantName} on Agent Payments Service`,
    text: `${actor.email} invited you to join the team of ${actor.merchantName} on Agent Payments Service as ${article(input.role)} ${input.role}.\n\nAccept the invitation here (you will create an account, or sign in if you have one):\n\n${link}\n\nThe link works once, for 7 days. If you do not know this team or did not expect this mail, ignore it: nothing happens without the link.`,
  });
  await recordActivity(tx, {
    action: "member_invited",
    userId: actor.userId,
    merchantId,
    origin,
    detail: { invitationId: invitation.id, email: input.email, role: input.role },
  });
  return { ...invitation, role: invitation.role as Role };
}

const article = (role: Role) => (role === "owner" || role === "admin" ? "an" : "a");
