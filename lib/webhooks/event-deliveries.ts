// The webhook deliveries of one event (the dashboard's event page): per delivery its endpoint, status,
// attempts so far and the latest attempt's answer. A resend is a new delivery, so an event can list the
// same endpoint more than once; newest first, the latest DELIVERY_LIMIT.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { publicDeliveryError } from "./delivery-errors";

export const DELIVERY_LIMIT = 50;

/** "queued" (not tried yet), "retrying" (failed, tried again later), "sending", "succeeded", "failed" (given up). */
export type EventDeliveryStatus = "queued" | "retrying" | "sending" | "succeeded" | "failed";

function deliveryStatus(status: string, attempts: number): EventDeliveryStatus {
  if (status === "pending") return attempts > 0 ? "retrying" : "queued";
  return status as EventDeliveryStatus;
}

export async function listEventDeliveries(db: Db, scope: Scope, eventId: string) {
  const event = await db.event.findFirst({
    where: { id: eventId, merchantId: scope.merchantId, livemode: scope.livemode },
    select: { id: true },
  });
  if (!event) throw new NotFoundError("event", eventId);
  const rows = await db.webhookDelivery.findMany({
    where: { eventId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERY_LIMIT,
    include: {
      endpoint: { select: { id: true, url: true, status: true } },
      log: { orderBy: [{ attemptedAt: "desc" }, { id: "desc" }], take: 1 },
    },
  });
  return rows.map((row) => {
    const last = row.log[0];
    const status = deliveryStatus(row.status, row.attempts);
    return {
      id: row.id,
      eventId: row.eventId,
      webhookEndpointId: row.endpoint.id,
      endpointUrl: row.endpoint.url,
      endpointStatus: row.endpoint.status,
      status,
      attempts: row.attempts,
      lastResponseStatus: last?.responseStatus ?? null,
      lastError: publicDeliveryError(last?.error ?? null),
      lastAttemptedAt: last?.attemptedAt.toISOString() ?? null,
      nextAttemptAt: status === "queued" || status === "retrying" ? row.nextAttemptAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    };
  });
}
