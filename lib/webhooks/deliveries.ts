// What merchants see of deliveries: the attempt log per endpoint, and resending an event.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import { queueEventFor } from "./fan-out";
import { serializeAttempt } from "./serialize";

/** 404 unless the endpoint is the caller's (same merchant and mode). */
async function requireOwnEndpoint(db: Db, scope: Scope, endpointId: string): Promise<void> {
  const endpoint = await db.webhookEndpoint.findFirst({
    where: { id: endpointId, merchantId: scope.merchantId, livemode: scope.livemode },
    select: { id: true },
  });
  if (!endpoint) throw new NotFoundError("webhook endpoint", endpointId);
}

export async function listDeliveryAttempts(db: Db, scope: Scope, endpointId: string, query: { limit: number; startingAfter?: string }) {
  await requireOwnEndpoint(db, scope, endpointId);
  const cursorRow = query.startingAfter
    ? requireCursor(
        await db.webhookDeliveryAttempt.findFirst({
          where: { endpointId, id: query.startingAfter },
          select: { id: true, attemptedAt: true },
        }),
        query.startingAfter,
      )
    : null;
  const where = cursorRow
    ? { OR: [{ attemptedAt: { lt: cursorRow.attemptedAt } }, { attemptedAt: cursorRow.attemptedAt, id: { lt: cursorRow.id } }] }
    : {};
  const rows = await db.webhookDeliveryAttempt.findMany({
    where: { endpointId, ...where },
    orderBy: [{ attemptedAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    include: { delivery: { select: { event: { select: { type: true } } } } },
  });
  return toListPage(rows, query.limit, (row) => serializeAttempt(row, row.delivery.event.type));
}

/** Deliveries queued for the endpoint and not attempted yet (new events, resends, test events), newest first. */
export async function listQueuedDeliveries(db: Db, scope: Scope, endpointId: string, limit = 20) {
  await requireOwnEndpoint(db, scope, endpointId);
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId, attempts: 0, status: { in: ["pending", "sending"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { event: { select: { type: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    eventId: row.eventId,
    eventType: row.event.type,
    status: row.status === "sending" ? "sending" : "queued",
    queuedAt: row.createdAt.toISOString(),
  }));
}

export async function resendEvent(tx: Db, scope: Scope, eventId: string, webhookEndpointId?: string) {
  const event = await tx.event.findFirst({ where: { id: eventId, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!event) throw new NotFoundError("event", eventId);
  if (webhookEndpointId) {
    const endpoint = await tx.webhookEndpoint.findFirst({
      where: { id: webhookEndpointId, merchantId: scope.merchantId, livemode: scope.livemode },
    });
    if (!endpoint) throw new NotFoundError("webhook endpoint", webhookEndpointId);
  }
  const queued = await queueEventFor(tx, event, webhookEndpointId);
  return { object: "event_resend" as const, eventId, queuedDeliveries: queued };
}
