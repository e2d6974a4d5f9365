// Ticks for meter tests. Every test file's ticks run against the shared server at once, and a tick
// skips a meter, PaymentIntent or reservation another tick holds (SKIP LOCKED): one tick of ours may
// return before that other tick has committed. So tests tick until the state they wait for is reached.
import { getDb } from "../../lib/db";
import { tick } from "./payments";

export async function tickUntil(done: () => Promise<boolean>, base?: string, tries = 50): Promise<void> {
  for (let i = 0; i < tries; i++) {
    await tick(base);
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the tick never reached the expected state");
}

/** Ticks until the meter has nothing left to bill: no settlement due, no aggregate PaymentIntent unsettled. */
export function tickUntilSettled(meterId: string, base?: string): Promise<void> {
  return tickUntil(async () => {
    const meter = await getDb().meter.findUniqueOrThrow({ where: { id: meterId }, select: { settleDueAt: true } });
    const open = await getDb().paymentIntent.count({ where: { meterId, status: { in: ["requires_payment", "captured"] } } });
    return meter.settleDueAt === null && open === 0;
  }, base);
}
