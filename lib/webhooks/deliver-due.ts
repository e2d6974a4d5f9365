// The sender: claims due deliveries (FOR UPDATE SKIP LOCKED, with a lease so that a sender that dies
// mid-send is retried and two live senders never send the same attempt), POSTs them concurrently, then
// records every attempt, reschedules failures on the back-off schedule, and disables endpoints that
// have failed without a single success for WEBHOOK_DISABLE_AFTER_HOURS.
import { getDb, transaction } from "../db";
import type { Event, WebhookEndpoint } from "../generated/prisma/client";
import { env } from "../env";
import { createId } from "../ids";
import { signWebhookPayload } from "../sdk";
import { mayUsePrivateAddresses } from "./address-policy";
import type { DeliveryErrorClass } from "./delivery-errors";
import { sendSignedPost, type SendResult } from "./send-delivery";
import { activeSigningSecrets } from "./signing-secrets";

interface Claimed {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempts: number;
}

interface Outcome {
  delivery: Claimed;
  result: SendResult;
  attemptedAt: Date;
  nextAttemptAt: Date | null;
}

// A batch sends in ceil(batch / concurrency) waves of at most one time-out each; the lease covers the
// whole batch and its recording, so a live sender's claim never runs out under it.
const leaseSeconds = () => Math.ceil(env.WEBHOOK_BATCH_SIZE / env.WEBHOOK_CONCURRENCY) * Math.ceil(env.WEBHOOK_TIMEOUT_MS / 1000) + 5;

async function claimDue(limit: number): Promise<Claimed[]> {
  return getDb().$queryRaw<Claimed[]>`
    UPDATE webhook_deliveries d
       SET status = 'sending', attempts = d.attempts + 1, locked_until = now() + make_interval(secs => ${leaseSeconds()}::int)
      FROM (SELECT id FROM webhook_deliveries
             WHERE (status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND locked_until < now())
             ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
     WHERE d.id = due.id
    RETURNING d.id, d.event_id, d.endpoint_id, d.attempts`;
}

/** Seconds until the retry after `attempt` (1-based), or null when the schedule is used up. */
export function retryDelaySeconds(attempt: number, schedule = env.WEBHOOK_RETRY_SCHEDULE): number | null {
  return attempt <= schedule.length ? schedule[attempt - 1] : null;
}

async function runWithConcurrency<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  });
  await Promise.all(workers);
  return results;
}

export async function deliverDueWebhooks(): Promise<number> {
  const claimed = await claimDue(env.WEBHOOK_BATCH_SIZE);
  if (claimed.length === 0) return 0;
  const db = getDb();
  const [events, endpoints] = await Promise.all([
    db.event.findMany({ where: { id: { in: [...new Set(claimed.map((c) => c.event_id))] } } }),
    db.webhookEndpoint.findMany({ where: { id: { in: [...new Set(claimed.map((c) => c.endpoint_id))] } } }),
  ]);
  const eventsById = new Map(events.map((e) => [e.id, e]));
  const endpointsById = new Map(endpoints.map((e) => [e.id, e]));

  const outcomes = await runWithConcurrency(claimed, env.WEBHOOK_CONCURRENCY, async (delivery): Promise<Outcome> => {
    const attemptedAt = new Date();
    const event = eventsById.get(delivery.event_id);
    const endpoint = endpointsById.get(delivery.endpoint_id);
    let result: SendResult;
    try {
      // Deleted since the claim (its delivery row went with it): nothing to send or record.
      if (!event || !endpoint) return { delivery, result: gone, attemptedAt, nextAttemptAt: null };
      result = endpoint.status === "enabled" ? await send(event, endpoint, attemptedAt) : failure("endpoint_disabled");
    } catch (err) {
      // One bad delivery (e.g. a secret that no longer decrypts) fails alone; the batch is still recorded.
      // The detail goes to the service's log, the attempt log gets the class only.
      console.error(`webhook delivery ${delivery.id} could not be sent:`, err instanceof Error ? err.message : err);
      result = failure("internal_error");
    }
    const delay = result.ok ? null : retryDelaySeconds(delivery.attempts);
    return { delivery, result, attemptedAt, nextAttemptAt: delay === null ? null : new Date(attemptedAt.getTime() + delay * 1000) };
  });

  await recordOutcomes(outcomes);
  return outcomes.length;
}

const gone: SendResult = { ok: false, responseStatus: null, durationMs: 0, error: null }; // never recorded
const failure = (error: DeliveryErrorClass): SendResult => ({ ok: false, responseStatus: null, durationMs: 0, error });

async function send(event: Event, endpoint: WebhookEndpoint, attemptedAt: Date): Promise<SendResult> {
  const payload = JSON.stringify({
    id: event.id,
    type: event.type,
    data: event.data,
    created: Math.floor(event.createdAt.getTime() / 1000),
    livemode: event.livemode,
  });
  const headers = {
    // The SDK's signer, so that what merchants verify with is exactly what signs.
    "x-service-signature": signWebhookPayload(activeSigningSecrets(endpoint, attemptedAt), payload, Math.floor(attemptedAt.getTime() / 1000)),
    "x-service-event-id": event.id,
  };
  return sendSignedPost(endpoint.url, payload, headers, mayUsePrivateAddresses());
}

/** One transaction for the whole batch: the attempt log, the queue rows, the endpoints' health. */
async function recordOutcomes(all: Outcome[]): Promise<void> {
  const outcomes = all.filter((o) => o.result !== gone);
  const succeeded = outcomes.filter((o) => o.result.ok);
  const failed = outcomes.filter((o) => !o.result.ok);
  await transaction(async (tx) => {
    await tx.webhookDeliveryAttempt.createMany({
      data: outcomes.map((o) => ({
        id: createId("deliveryAttempt"),
        deliveryId: o.delivery.id,
        endpointId: o.delivery.endpoint_id,
        eventId: o.delivery.event_id,
        status: o.result.ok ? "succeeded" : "failed",
        attempt: o.delivery.attempts, // counted up by the claim: this attempt's number
        responseStatus: o.result.responseStatus,
        durationMs: o.result.durationMs,
        error: o.result.error,
        attemptedAt: o.attemptedAt,
        nextAttemptAt: o.nextAttemptAt,
      })),
    });
    const ids = outcomes.map((o) => o.delivery.id);
    const statuses = outcomes.map((o) => (o.result.ok ? "succeeded" : o.nextAttemptAt ? "pending" : "failed"));
    const nextAt = outcomes.map((o) => o.nextAttemptAt ?? o.attemptedAt);
    const attempts = outcomes.map((o) => o.delivery.attempts);
    // Only rows still leased to this sender (same attempt number): a lease that expired and was claimed
    // again by another sender is not overwritten.
    await tx.$executeRaw`
      UPDATE webhook_deliveries d SET status = u.status, next_attempt_at = u.next_at, locked_until = NULL
        FROM unnest(${ids}::text[], ${statuses}::text[], ${nextAt}::timestamptz[], ${attempts}::int[]) AS u(id, status, next_at, attempts)
       WHERE d.id = u.id AND d.status = 'sending' AND d.attempts = u.attempts`;
    if (succeeded.length) {
      await tx.webhookEndpoint.updateMany({ where: { id: { in: succeeded.map((o) => o.delivery.endpoint_id) } }, data: { failingSince: null } });
    }
    if (failed.length) {
      const failing = [...new Set(failed.map((o) => o.delivery.endpoint_id))].filter((id) => !succeeded.some((o) => o.delivery.endpoint_id === id));
      await tx.$executeRaw`
        UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, now()),
               status = CASE WHEN COALESCE(failing_since, now()) < now() - make_interval(secs => ${env.WEBHOOK_DISABLE_AFTER_HOURS * 3600}::float8)
                             THEN 'disabled' ELSE status END
         WHERE id = ANY(${failing}::text[])`;
    }
  });
}
