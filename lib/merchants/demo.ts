// The demo merchant `npm start` seeds on a fresh database (scripts/lib/seed.ts): its dashboard login's email
// names it. The root agent card (/.well-known/agent-card.json, docs/a2a.md) answers for it.
import type { Db } from "../db";

export const DEMO_EMAIL = "demo@example.com";

export async function demoMerchantId(db: Db): Promise<string | null> {
  // The merchant the demo login owns (the seed makes it its owner; the oldest one if it joined others).
  const membership = await db.membership.findFirst({
    where: { user: { email: DEMO_EMAIL }, role: "owner" },
    orderBy: { createdAt: "asc" },
    select: { merchantId: true },
  });
  return membership?.merchantId ?? null;
}
