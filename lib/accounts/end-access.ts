// Every way into an account a user holds, ended at once (a password reset, docs/dashboard.md "Email
// links"), in the caller's transaction: the user's dashboard sessions, and every OAuth grant the user
// consented to (its access and refresh tokens stop with it: each token check joins its grant and refuses a
// revoked one, lib/oauth/verify-access-token.ts and token-endpoint.ts) together with the authorization codes
// the user approved and a client has not exchanged yet (else a code from before the reset would open a new
// grant after it). Grants made before grants recorded their user (user_id null) were made by the merchant's
// one user of the time, who became its owner (migration 20261127222000_teams): an owner's reset ends them.
import type { Db } from "../db";

export interface EndedAccess {
  sessions: number;
  oauthGrants: number;
}

export async function endEveryWayIn(tx: Db, userId: string): Promise<EndedAccess> {
  const now = new Date();
  const sessions = await tx.dashboardSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
  const oauthGrants = await tx.$executeRaw`
    UPDATE oauth_grants SET revoked_at = now(), revoked_reason = 'password_reset'
     WHERE revoked_at IS NULL
       AND (user_id = ${userId} OR (user_id IS NULL AND merchant_id IN (
             SELECT merchant_id FROM memberships WHERE user_id = ${userId} AND role = 'owner')))`;
  await tx.$executeRaw`UPDATE oauth_authorization_codes SET used_at = now() WHERE user_id = ${userId} AND used_at IS NULL`;
  return { sessions: sessions.count, oauthGrants };
}
