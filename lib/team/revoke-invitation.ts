// Revoking a pending invitation: one UPDATE that succeeds only while it is pending (not accepted, not
// revoked); its link then opens nothing. With the activity row, in the caller's transaction.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import type { Db } from "../db";
import type { TeamActor } from "./actor";
import { ConflictError, NotFoundError } from "../errors";

export async function revokeInvitation(tx: Db, actor: TeamActor, id: string, origin: RequestOrigin) {
  const merchantId = actor.merchantId;
  const { count } = await tx.invitation.updateMany({
    where: { id, merchantId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) {
    const existing = await tx.invitation.findFirst({ where: { id, merchantId }, select: { acceptedAt: true } });
    if (!existing) throw new NotFoundError("invitation", id);
    throw new ConflictError(existing.acceptedAt ? "This invitation was already accepted." : "This invitation was already revoked.", {
      reason: existing.acceptedAt ? "invitation_accepted" : "invitation_revoked",
    });
  }
  await recordActivity(tx, { action: "invitation_revoked", userId: actor.userId, merchantId, origin, detail: { invitationId: id } });
  return { id, revoked: true };
}
