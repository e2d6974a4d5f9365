// Server-side dashboard sessions: each sign-in is a row; the JWT cookie carries its id (`sid`). The
// dashboard accepts a cookie only while its row is neither revoked (sign-out) nor expired.
import type { Role } from "../accounts/roles";
import { getDb, type Db } from "../db";
import { randomBase62 } from "../ids";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

/** `twoFactor`: the sign-in passed the user's second factor (the session may then act in live mode). */
export async function startSession(userId: string, maxAgeSeconds: number, twoFactor = false): Promise<string> {
  const id = randomBase62(24);
  await getDb().dashboardSession.create({
    data: { id, userId, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000), twoFactorAt: twoFactor ? new Date() : null },
  });
  return id;
}

export async function revokeSession(id: string): Promise<void> {
  await getDb().dashboardSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
}

export interface LiveSession {
  userId: string;
  email: string;
  merchantId: string;
  merchantName: string;
  timeZone: string;
  role: Role;
  /** Two-factor sign-in is on for the user. */
  twoFactorEnabled: boolean;
  /** This session proved the second factor since it was turned on (lib/dashboard/two-factor-gate.ts). */
  twoFactorVerified: boolean;
}

/**
 * The live session's user in the merchant it selected, with their role there and their two-factor state,
 * in ONE query: the selected merchant's membership, else (none selected yet, or the user was removed from
 * it) the user's oldest membership. Null when the session ended, or the user belongs to no merchant any more.
 */
export async function liveSession(id: string, userId: string): Promise<LiveSession | null> {
  const rows = await getDb().$queryRaw<LiveSession[]>`
    SELECT u.id AS "userId", u.email, m.merchant_id AS "merchantId", mer.name AS "merchantName",
           mer.time_zone AS "timeZone", m.role,
           tf.enabled_at IS NOT NULL AS "twoFactorEnabled",
           (tf.enabled_at IS NOT NULL AND s.two_factor_at IS NOT NULL AND s.two_factor_at >= tf.enabled_at) AS "twoFactorVerified"
      FROM dashboard_sessions s
      JOIN users u ON u.id = s.user_id
      LEFT JOIN user_two_factor tf ON tf.user_id = s.user_id
      JOIN LATERAL (
        SELECT merchant_id, role FROM memberships
         WHERE user_id = s.user_id
         ORDER BY merchant_id = s.merchant_id DESC NULLS LAST, created_at, merchant_id
         LIMIT 1) m ON true
      JOIN merchants mer ON mer.id = m.merchant_id
     WHERE s.id = ${id} AND s.user_id = ${userId} AND s.revoked_at IS NULL AND s.expires_at > now()`;
  return rows[0] ?? null;
}

/** Selects a merchant for the session: only one the user is a member of (the statement decides). */
export async function selectSessionMerchant(db: Db, id: string, userId: string, merchantId: string): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE dashboard_sessions SET merchant_id = ${merchantId}
     WHERE id = ${id} AND user_id = ${userId} AND revoked_at IS NULL
       AND EXISTS (SELECT 1 FROM memberships WHERE merchant_id = ${merchantId} AND user_id = ${userId})`;
  return count === 1;
}

// Ended sessions are kept a day (a revoked cookie still meets its row and is refused with it), then deleted.
const KEEP_ENDED_MS = 24 * 3600_000;

/** Sessions one purge deletes at most. */
export const PURGE_BATCH = 5_000;

/**
 * Deletes sessions that expired or were revoked more than a day ago (the tick calls this), at most PURGE_BATCH
 * a call: a backlog drains over a few ticks. Returns how many it deleted. The table stays small (one row per
 * sign-in, gone a day after it ends: a session lasts 12 hours), so revoked_at has no index: the scan stops at
 * the first PURGE_BATCH ended rows it meets.
 */
export async function purgeEndedSessions(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - KEEP_ENDED_MS);
  return purgeBatch(db, "dashboard_sessions", Prisma.sql`(expires_at < ${before} OR revoked_at < ${before})`, null, PURGE_BATCH);
}

/** The live session's user (id and address), member of any merchant or none, or null (accepting an invitation). */
export async function liveSessionAccount(id: string, userId: string): Promise<{ id: string; email: string } | null> {
  const session = await getDb().dashboardSession.findFirst({
    where: { id, userId, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { user: { select: { id: true, email: true } } },
  });
  return session?.user ?? null;
}
