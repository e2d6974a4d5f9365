// Server-side dashboard sessions: each sign-in is a row; the JWT cookie carries its id (`sid`). The
// dashboard accepts a cookie only while its row is neither revoked (sign-out) nor expired.
import { getDb } from "../db";
import { randomBase62 } from "../ids";

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

/**
 * The live session's user with their merchant's name (one query), or null; `twoFactor`: whether the user
 * has two-factor sign-in on, and whether this session proved it since it was turned on.
 */
export async function liveSessionUser(id: string, userId: string) {
  const session = await getDb().dashboardSession.findFirst({
    where: { id, userId, revokedAt: null, expiresAt: { gt: new Date() } },
    select: {
      twoFactorAt: true,
      user: {
        select: {
          id: true,
          email: true,
          merchantId: true,
          merchant: { select: { name: true, timeZone: true } },
          twoFactor: { select: { enabledAt: true } },
        },
      },
    },
  });
  if (!session) return null;
  const { twoFactor, ...user } = session.user;
  const enabledAt = twoFactor?.enabledAt ?? null;
  const verified = enabledAt !== null && session.twoFactorAt !== null && session.twoFactorAt >= enabledAt;
  return { ...user, twoFactor: { enabled: enabledAt !== null, verified } };
}

// Ended sessions are kept a day (a revoked cookie still meets its row and is refused with it), then deleted.
const KEEP_ENDED_MS = 24 * 3600_000;

/** Deletes sessions that expired or were revoked more than a day ago (the tick calls this). */
export async function purgeEndedSessions(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - KEEP_ENDED_MS);
  const { count } = await getDb().dashboardSession.deleteMany({
    where: { OR: [{ expiresAt: { lt: before } }, { revokedAt: { lt: before } }] },
  });
  return count;
}
