// The delivery log's summary per endpoint (dashboard endpoint page): success rate and p50 latency of the
// attempts of the last 24 h; and "replay all failed since ...": every delivery of the endpoint that ended
// `failed` (its schedule used up) at or after a time is queued again, in ONE statement. A replayed delivery
// gets one more attempt now (its attempt numbers continue); if that fails too it ends `failed` again.
import type { z } from "zod";
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import type { WebhookEndpointHealthObject } from "./schemas";

async function requireEndpoint(db: Db, scope: Scope, id: string) {
  const endpoint = await db.webhookEndpoint.findFirst({
    where: { id, merchantId: scope.merchantId, livemode: scope.livemode },
    select: { id: true },
  });
  if (!endpoint) throw new NotFoundError("webhook endpoint", id);
}

export type EndpointHealth = z.output<typeof WebhookEndpointHealthObject>;

export async function endpointHealth(db: Db, scope: Scope, id: string): Promise<EndpointHealth> {
  await requireEndpoint(db, scope, id);
  const [row] = await db.$queryRaw<{ attempts: number; succeeded: number; p50: number | null }[]>`
    SELECT count(*)::int AS attempts, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50
      FROM webhook_delivery_attempts WHERE endpoint_id = ${id} AND attempted_at > now() - interval '24 hours'`;
  return {
    object: "webhook_endpoint_health",
    webhookEndpointId: id,
    windowHours: 24,
    attempts: row.attempts,
    succeeded: row.succeeded,
    successRate: row.attempts ? row.succeeded / row.attempts : null,
    p50LatencyMs: row.p50 === null ? null : Number(row.p50),
  };
}

export async function replayFailedDeliveries(tx: Db, scope: Scope, id: string, since: Date) {
  await requireEndpoint(tx, scope, id);
  // A failed delivery's next_attempt_at holds the time of its last attempt (lib/webhooks/sender.ts).
  const requeued = await tx.$executeRaw`
    UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL
     WHERE endpoint_id = ${id} AND status = 'failed' AND next_attempt_at >= ${since}`;
  return { object: "webhook_replay" as const, webhookEndpointId: id, since: since.toISOString(), requeuedDeliveries: requeued };
}
