// Fan-out: every outbox event becomes one delivery per enabled endpoint of its merchant and mode that
// subscribes to its type (no subscription = all). Events are claimed with FOR UPDATE SKIP LOCKED and
// marked in the same transaction as their deliveries, so a crash in between loses nothing and several
// app instances never fan out one event twice.
import type { Db } from "../db";
import { transaction } from "../db";
import { createId } from "../ids";

const BATCH = 500;

export async function fanOutEvents(): Promise<number> {
  return transaction(async (tx: Db) => {
    const events = await tx.$queryRaw<{ id: string; merchant_id: string; livemode: boolean; type: string }[]>`
      SELECT id, merchant_id, livemode, type FROM events WHERE fanned_out_at IS NULL
       ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return 0;
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { status: "enabled", merchantId: { in: [...new Set(events.map((e) => e.merchant_id))] } },
      select: { id: true, merchantId: true, livemode: true, enabledEvents: true },
    });
    const now = new Date();
    const deliveries = events.flatMap((event) =>
      endpoints
        .filter((ep) => ep.merchantId === event.merchant_id && ep.livemode === event.livemode)
        .filter((ep) => ep.enabledEvents.length === 0 || ep.enabledEvents.includes(event.type))
        .map((ep) => ({ id: createId("delivery"), eventId: event.id, endpointId: ep.id, status: "pending", nextAttemptAt: now })),
    );
    if (deliveries.length) await tx.webhookDelivery.createMany({ data: deliveries });
    await tx.event.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { fannedOutAt: now } });
    return events.length;
  });
}

/** Queues an event again (POST /v1/events/:id/resend): to one endpoint, or to every current subscriber. */
export async function queueEventFor(tx: Db, event: { id: string; merchantId: string; livemode: boolean; type: string }, endpointId?: string): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { merchantId: event.merchantId, livemode: event.livemode, status: "enabled", ...(endpointId ? { id: endpointId } : {}) },
    select: { id: true, enabledEvents: true },
  });
  const targets = endpointId ? endpoints : endpoints.filter((ep) => ep.enabledEvents.length === 0 || ep.enabledEvents.includes(event.type));
  const now = new Date();
  await tx.webhookDelivery.createMany({
    data: targets.map((ep) => ({ id: createId("delivery"), eventId: event.id, endpointId: ep.id, status: "pending", nextAttemptAt: now })),
  });
  return targets.length;
}
