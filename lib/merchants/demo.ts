// The demo merchant `npm start` seeds on a fresh database (scripts/lib/seed.ts): its dashboard login's email
// names it. The root agent card (/.well-known/agent-card.json, docs/a2a.md) answers for it.
import type { Db } from "../db";

export const DEMO_EMAIL = "demo@example.com";

export async function demoMerchantId(db: Db): Promise<string | null> {
  const user = await db.user.findUnique({ where: { email: DEMO_EMAIL }, select: { merchantId: true } });
  return user?.merchantId ?? null;
}
