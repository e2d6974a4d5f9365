// Webhook deliveries that gave up (every retry failed), newest first, with their last attempt: what a
// merchant (or its agent, through /mcp) looks at to find a broken endpoint.
import type { Db } from "../db";
import type { Scope } from "../scope";
import { publicDeliveryError } from "./delivery-errors";

export async function listFailedDeliveries(db: Db, scope: Scope, limit = 20) {
  const rows = await db.webhookDelivery.findMany({
    where: { status: "failed", endpoint: { merchantId: scope.merchantId, livemode: scope.livemode } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    include: {
      event: { select: { type: true } },
      endpoint: { select: { url: true } },
      log: { orderBy: { attemptedAt: "desc" }, take: 1 },
    },
  });
  return {
    object: "list" as const,
    data: rows.slice(0, limit).map((row) => {
      const last = row.log[0];
      return {
        id: row.id,
        object: "webhook_delivery" as const,
        livemode: scope.livemode,
        status: "failed" as const,
        eventId: row.eventId,
        eventType: row.event.type,
        webhookEndpointId: row.endpointId,
        endpointUrl: row.endpoint.url,
        attempts: row.attempts,
        lastAttempt: last
          ? { attemptedAt: last.attemptedAt.toISOString(), responseStatus: last.responseStatus, error: publicDeliveryError(last.error) }
          : null,
        createdAt: row.createdAt.toISOString(),
      };
    }),
    hasMore: rows.length > limit,
  };
}
