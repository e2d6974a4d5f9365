// Ended dashboard sessions (expired or revoked) are deleted a day after they ended; live ones stay.
import { describe, expect, it } from "vitest";
import { purgeEndedSessions, startSession } from "../../lib/auth/sessions";
import { getDb } from "../../lib/db";
import { createMerchant } from "../../lib/merchants/create-merchant";

describe("dashboard session purge", () => {
  it("deletes sessions expired or revoked over a day ago, keeps the rest", async () => {
    const created = await createMerchant(getDb(), {
      name: "Session purge",
      email: `purge-${Date.now()}@example.com`,
      password: "a long password 123",
    });
    const userId = created.userId!;
    const day = 24 * 3600_000;
    const ids = {
      live: await startSession(userId, 3600),
      expiredLongAgo: await startSession(userId, 3600),
      expiredRecently: await startSession(userId, 3600),
      revokedLongAgo: await startSession(userId, 3600),
    };
    const ago = (ms: number) => new Date(Date.now() - ms);
    await getDb().dashboardSession.update({ where: { id: ids.expiredLongAgo }, data: { expiresAt: ago(day + 60_000) } });
    await getDb().dashboardSession.update({ where: { id: ids.expiredRecently }, data: { expiresAt: ago(60_000) } });
    await getDb().dashboardSession.update({ where: { id: ids.revokedLongAgo }, data: { revokedAt: ago(day + 60_000) } });

    expect(await purgeEndedSessions(getDb())).toBeGreaterThanOrEqual(2);
    const left = await getDb().dashboardSession.findMany({ where: { userId }, select: { id: true } });
    expect(left.map((s) => s.id).sort()).toEqual([ids.live, ids.expiredRecently].sort());
  });
});
