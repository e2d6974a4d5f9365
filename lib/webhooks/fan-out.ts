// Fan-out: every outbox event becomes one delivery per enabled endpoint of its merchant and mode that
// subscribes to its type (no subscription = all of the contract's types; an opt-in type such as dispute.*,
// lib/events/types.ts, only to an endpoint that names it). ONE statement per batch: it claims the events with
// FOR UPDATE SKIP LOCKED, marks them fanned out and inserts their deliveries (ids made by the database,
// aps_random_id, migration 20261126152505), so a crash in between loses nothing, several app instances
// never fan out one event twice, and the application neither reads the events nor makes a row per delivery
// (it did through Prisma's createMany: the largest share of the sender's CPU, docs/BENCHMARKS.md).
// An endpoint whose format takes only session events (ACP's, lib/webhooks/formats.ts) gets only those types
// of orders an ACP checkout session paid.
import type { Db } from "../db";
import { sql, statement } from "../db";
import { OPT_IN_EVENT_TYPES } from "../events/types";
import { createId } from "../ids";
import { fanOutFilter, takesEvent, webhookFormat } from "./formats";

/**
 * Events per fan-out statement. The sender's loop claims only between fan-out statements, so a burst's fan-out
 * holds up the claims of finished sends' slots while one statement runs: 1,000 events took about 40 ms of
 * PostgreSQL, 250 take about 10 (docs/BENCHMARKS.md, "Webhook sender"). 100 measured no better than 250.
 */
export const FAN_OUT_BATCH = 250;

const FAN_OUT = statement(
  "webhook_fan_out",
  `WITH ev AS (
     SELECT id, merchant_id, livemode, type, object_id FROM events WHERE fanned_out_at IS NULL
      ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED
   ), marked AS (
     UPDATE events e SET fanned_out_at = now() FROM ev WHERE e.id = ev.id RETURNING e.id
   ), queued AS (
     INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
     SELECT aps_random_id('wdl'), ev.id, ep.id, 'pending', now()
       FROM ev JOIN webhook_endpoints ep ON ep.merchant_id = ev.merchant_id AND ep.livemode = ev.livemode AND ep.status = 'enabled'
      WHERE ((COALESCE(cardinality(ep.enabled_events), 0) = 0 AND ev.type <> ALL($4::text[])) OR ev.type = ANY(ep.enabled_events))
        AND (ep.format = ANY($2::text[]) OR (ev.type = ANY($3::text[]) AND EXISTS (SELECT 1 FROM acp_checkout_sessions s WHERE s.order_id = ev.object_id)))
     RETURNING 1
   )
   SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM queued)::int AS deliveries`,
);

/** Fans out up to FAN_OUT_BATCH events not fanned out yet; returns how many events it took. */
export async function fanOutEvents(): Promise<number> {
  const { openFormats, sessionEventTypes } = fanOutFilter();
  const [row] = await sql().rows<{ events: number; deliveries: number }>(FAN_OUT, [
    FAN_OUT_BATCH,
    openFormats,
    sessionEventTypes,
    OPT_IN_EVENT_TYPES,
  ]);
  return row.events;
}

/** Queues an event again (POST /v1/events/:id/resend): to one endpoint, or to every current subscriber. */
export async function queueEventFor(
  tx: Db,
  event: { id: string; merchantId: string; livemode: boolean; type: string },
  endpointId?: string,
): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { merchantId: event.merchantId, livemode: event.livemode, status: "enabled", ...(endpointId ? { id: endpointId } : {}) },
    select: { id: true, enabledEvents: true, format: true },
  });
  const sessionOnly = (ep: { format: string }) => webhookFormat(ep.format).sessionEventTypes !== undefined;
  const session = endpoints.some(sessionOnly)
    ? await tx.$queryRaw<
        { id: string }[]
      >`SELECT s.id FROM acp_checkout_sessions s JOIN events e ON e.object_id = s.order_id WHERE e.id = ${event.id}`
    : [];
  const sessionId = session[0]?.id ?? null;
  const targets = endpoints.filter((ep) => (endpointId && !sessionOnly(ep) ? true : takesEvent(ep, event.type, sessionId)));
  const now = new Date();
  await tx.webhookDelivery.createMany({
    data: targets.map((ep) => ({ id: createId("delivery"), eventId: event.id, endpointId: ep.id, status: "pending", nextAttemptAt: now })),
  });
  return targets.length;
}
