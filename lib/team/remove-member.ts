// Removing a member (admins; an owner only by an owner) or leaving the team (anyone): one guarded DELETE
// after the team's memberships are locked (lock-team.ts), so the last owner can neither leave nor be
// removed, even by two concurrent requests. The member's pending invitations to this team end with it;
// their sessions on this team end at once (the dashboard reads the membership on every request).
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import type { Db } from "../db";
import { requireRole } from "../accounts/require-role";
import type { TeamActor } from "./actor";
import { NotFoundError } from "../errors";
import { lastOwner } from "./change-role";
import { lockTeam } from "./lock-team";

export async function removeMember(tx: Db, actor: TeamActor, userId: string, origin: RequestOrigin) {
  const merchantId = actor.merchantId;
  const leaving = userId === actor.userId;
  if (!leaving) requireRole(actor, "admin");
  const role = await lockTeam(tx, merchantId, userId);
  if (!role) throw new NotFoundError("member", userId);
  if (role === "owner" && !leaving) requireRole(actor, "owner");
  const count = await tx.$executeRaw`
    DELETE FROM memberships
     WHERE merchant_id = ${merchantId} AND user_id = ${userId}
       AND (role <> 'owner' OR EXISTS (
             SELECT 1 FROM memberships o WHERE o.merchant_id = ${merchantId} AND o.role = 'owner' AND o.user_id <> ${userId}))`;
  if (count === 0) throw lastOwner();
  await tx.invitation.updateMany({
    where: { merchantId, invitedById: userId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  await recordActivity(tx, {
    action: "member_removed",
    userId: actor.userId,
    merchantId,
    origin,
    detail: { memberId: userId, role, left: leaving },
  });
  return { userId, removed: true };
}
