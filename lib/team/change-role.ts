// Changing a member's role (admins and owners; only an owner may grant the owner role or change an owner's).
// The database decides the last-owner rule: the team's memberships are locked first (lock-team.ts), then
// one guarded UPDATE demotes an owner only while another owner remains, so two concurrent demotions of
// the last two owners leave one.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import type { Role } from "../accounts/roles";
import type { Db } from "../db";
import { requireRole } from "../accounts/require-role";
import type { TeamActor } from "./actor";
import { ConflictError, NotFoundError } from "../errors";
import { lockTeam } from "./lock-team";

export async function changeRole(tx: Db, actor: TeamActor, userId: string, role: Role, origin: RequestOrigin) {
  const merchantId = actor.merchantId;
  if (role === "owner") requireRole(actor, "owner");
  const previous = await lockTeam(tx, merchantId, userId);
  if (!previous) throw new NotFoundError("member", userId);
  if (previous === "owner") requireRole(actor, "owner");
  if (previous === role) return { userId, role };
  const count = await tx.$executeRaw`
    UPDATE memberships SET role = ${role}
     WHERE merchant_id = ${merchantId} AND user_id = ${userId}
       AND (role <> 'owner' OR EXISTS (
             SELECT 1 FROM memberships o WHERE o.merchant_id = ${merchantId} AND o.role = 'owner' AND o.user_id <> ${userId}))`;
  if (count === 0) throw lastOwner();
  await recordActivity(tx, {
    action: "member_role_changed",
    userId: actor.userId,
    merchantId,
    origin,
    detail: { memberId: userId, from: previous, to: role },
  });
  return { userId, role };
}

export const lastOwner = () =>
  new ConflictError("A team keeps at least one owner: make another member owner first.", { reason: "last_owner" });
