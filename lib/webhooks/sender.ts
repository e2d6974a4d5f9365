// The webhook sender (docs/webhooks.md "How the sender works"). One engine, two drivers:
//  - the long-running server's own loop (startBackgroundSender): woken by each commit that inserted events
//    (lib/events/listener.ts), by the cron tick, and by its own finished sends while work is left;
//  - the cron tick where nothing runs in the background (a serverless host): runSenderOnce(budget).
//
// Each attempt is claimed before it is sent: `pending` and due (or `sending` with a lease run out) ->
// `sending`, attempts + 1, a lease, in one UPDATE over rows locked FOR UPDATE SKIP LOCKED. Whatever
// drives it and however many processes run, an attempt is claimed by one sender only; a sender that dies
// mid-send leaves a lease that runs out, and the attempt is sent again (at least once).
//
// Fairness: the claim takes, per endpoint, at most WEBHOOK_ENDPOINT_CONCURRENCY attempts in flight
// (counted over every process: `sending` rows with a live lease) and per merchant at most
// WEBHOOK_MERCHANT_CONCURRENCY, and orders what it takes round-robin between merchants (each merchant's
// oldest first), so one merchant's slow endpoints can fill only their own slots. It picks each endpoint's due
// work before it ranks anything (at most the free slots' worth from each endpoint with work, found through
// partial indexes), so its cost follows the caps and the number of endpoints with work, never the backlog:
// 25,000 due attempts of one merchant do not push another's first one back. Sends are not batched in
// waves: each attempt frees its slot when it ends, and its outcome is recorded with others that ended
// about the same time (one statement per flush).
import { sql, statement } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { env } from "../env";
import { createId } from "../ids";
import { signWebhookPayload } from "agent-payments-sdk";
import { openSecret } from "../crypto/secret-box";
import { mayUsePrivateAddresses } from "../security/address-policy";
import type { DeliveryErrorClass } from "./delivery-errors";
import { FAN_OUT_BATCH, fanOutEvents } from "./fan-out";
import { webhookFormat, type FormattedEvent } from "./formats";
import { sendSignedPost, type SendResult } from "./send-delivery";
import { globalSingleton } from "../global-singleton";

export interface ClaimedRow extends FormattedEvent {
  id: string;
  endpoint_id: string;
  attempts: number;
  url: string;
  endpoint_status: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  /** The endpoint's format: its entry in the table of lib/webhooks/formats.ts ("service", or an adapter's). */
  format: string;
}

interface Outcome {
  row: ClaimedRow;
  result: SendResult;
  attemptedAt: Date;
  nextAttemptAt: Date | null;
}

/** A lease covers one send (its time-out) and the short wait until its outcome is flushed. */
const leaseSeconds = () => Math.ceil(env.WEBHOOK_TIMEOUT_MS / 1000) + 10;

// $1 how many, $2 per-endpoint cap, $3 per-merchant cap, $4 lease seconds, $5 only merchants with nothing in
// flight, $6 ids of this process's attempts that have finished but are not recorded yet (not in flight).
// Work is picked per endpoint BEFORE anything is ranked, so the cost follows the caps, not the backlog:
//  busy_ep/busy_m  live leases per endpoint and merchant (the partial index of `sending` rows: as many as
//                  the attempts in flight);
//  queued_ep       every endpoint with pending rows and its earliest one: a skip scan of the partial index of
//                  `pending` rows, one probe per endpoint however many rows it holds;
//  room            per endpoint with due work (or a lease run out), how many it may take: its free slots,
//                  its merchant's, and the claim's limit, whichever is fewest;
//  due             per endpoint at most that many rows, its leases run out and its due rows, oldest first;
//  per_m/pick      each merchant's rows ranked across its endpoints (the emptiest endpoint first), cut at
//                  the merchant's free slots, then taken round-robin between merchants.
const CLAIM = statement(
  "webhook_claim_fair",
  `WITH RECURSIVE busy_ep AS (
     SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries
      WHERE status = 'sending' AND locked_until >= now() AND NOT (id = ANY($6::text[])) GROUP BY endpoint_id
   ), busy_m AS (
     SELECT e.merchant_id, sum(b.n)::int AS n FROM busy_ep b JOIN webhook_endpoints e ON e.id = b.endpoint_id GROUP BY e.merchant_id
   ), queued_ep AS (
     (SELECT endpoint_id, next_attempt_at FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id, next_attempt_at LIMIT 1)
     UNION ALL
     SELECT n.endpoint_id, n.next_attempt_at FROM queued_ep q CROSS JOIN LATERAL (
       SELECT d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.endpoint_id > q.endpoint_id ORDER BY d.endpoint_id, d.next_attempt_at LIMIT 1
     ) n
   ), candidate AS (
     SELECT endpoint_id FROM queued_ep WHERE next_attempt_at <= now()
     UNION
     SELECT endpoint_id FROM webhook_deliveries WHERE status = 'sending' AND locked_until < now()
   ), room AS (
     SELECT c.endpoint_id, e.merchant_id, COALESCE(be.n, 0) AS ep_busy, COALESCE(bm.n, 0) AS m_busy,
            GREATEST(LEAST($2 - COALESCE(be.n, 0), $3 - COALESCE(bm.n, 0), $1), 0) AS n
       FROM candidate c JOIN webhook_endpoints e ON e.id = c.endpoint_id
       LEFT JOIN busy_ep be ON be.endpoint_id = c.endpoint_id LEFT JOIN busy_m bm ON bm.merchant_id = e.merchant_id
      WHERE NOT $5::boolean OR bm.n IS NULL
   ), due AS (
     SELECT r.merchant_id, r.m_busy, x.id, x.next_attempt_at,
            row_number() OVER (PARTITION BY r.endpoint_id ORDER BY x.next_attempt_at, x.id) + r.ep_busy AS ep_slot
       FROM room r CROSS JOIN LATERAL (
         SELECT u.id, u.next_attempt_at FROM (
           (SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
             WHERE d.endpoint_id = r.endpoint_id AND d.status = 'sending' AND d.locked_until < now() ORDER BY d.locked_until LIMIT r.n)
           UNION ALL
           (SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
             WHERE d.endpoint_id = r.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now() ORDER BY d.next_attempt_at LIMIT r.n)
         ) u ORDER BY u.next_attempt_at LIMIT r.n
       ) x
      WHERE r.n > 0
   ), per_m AS (
     SELECT id, next_attempt_at, m_busy, row_number() OVER (PARTITION BY merchant_id ORDER BY ep_slot, next_attempt_at, id) AS m_rank FROM due
   ), pick AS (
     SELECT id FROM per_m WHERE m_rank + m_busy <= $3 ORDER BY m_rank, next_attempt_at LIMIT $1
   ), locked AS (
     SELECT d.id FROM webhook_deliveries d
      WHERE d.id IN (SELECT id FROM pick)
        AND ((d.status = 'pending' AND d.next_attempt_at <= now()) OR (d.status = 'sending' AND d.locked_until < now()))
      FOR UPDATE SKIP LOCKED
   )
   UPDATE webhook_deliveries d
      SET status = 'sending', attempts = d.attempts + 1, locked_until = now() + make_interval(secs => $4::int)
     FROM locked, events ev, webhook_endpoints ep
    WHERE d.id = locked.id AND ev.id = d.event_id AND ep.id = d.endpoint_id
   RETURNING d.id, d.endpoint_id, d.attempts, ev.id AS event_id, ev.type AS event_type, ev.data::text AS event_data,
             ev.created_at AS event_created, ev.livemode AS event_livemode, ep.url, ep.status AS endpoint_status,
             ep.secret_ciphertext, ep.previous_secret_ciphertext, ep.previous_secret_expires_at, ep.format,
             (SELECT s.id FROM acp_checkout_sessions s WHERE s.order_id = ev.object_id) AS session_id`,
);

export async function claimDue(limit: number, idleMerchantsOnly = false, finishedIds: string[] = []): Promise<ClaimedRow[]> {
  return sql().rows<ClaimedRow>(CLAIM, [
    limit,
    env.WEBHOOK_ENDPOINT_CONCURRENCY,
    env.WEBHOOK_MERCHANT_CONCURRENCY,
    leaseSeconds(),
    idleMerchantsOnly,
    finishedIds,
  ]);
}

/**
 * Slots beyond WEBHOOK_CONCURRENCY kept for merchants with nothing in flight: however many merchants'
 * slow endpoints fill the sender, a merchant whose webhooks are all answered goes out at once.
 */
export const RESERVE = 32;

/** Finished sends that make the sender claim again at once; fewer wait up to CLAIM_WAIT_MS. */
const CLAIM_MIN = 32;
const CLAIM_WAIT_MS = 10;

/**
 * Finished sends are recorded together, FLUSH_WAIT_MS after the first or once FLUSH_MAX wait: a flush costs
 * about the same whatever it holds, so fewer and larger flushes cost less per delivery.
 */
const FLUSH_WAIT_MS = 20;
const FLUSH_MAX = 200;

/** Seconds until the retry after `attempt` (1-based), or null when the schedule is used up. */
export function retryDelaySeconds(attempt: number, schedule = env.WEBHOOK_RETRY_SCHEDULE): number | null {
  return attempt <= schedule.length ? schedule[attempt - 1] : null;
}

// Opened secrets by sealed text (AES-GCM per attempt was a measurable share of the CPU); bounded.
const secrets = new Map<string, string>();
function opened(sealed: string): string {
  let secret = secrets.get(sealed);
  if (secret === undefined) {
    secret = openSecret(sealed);
    if (secrets.size >= 5_000) secrets.delete(secrets.keys().next().value!);
    secrets.set(sealed, secret);
  }
  return secret;
}

const failure = (error: DeliveryErrorClass): SendResult => ({ ok: false, responseStatus: null, durationMs: 0, error });

async function sendOne(row: ClaimedRow, bodies: Map<string, string>): Promise<Outcome> {
  const attemptedAt = new Date();
  let result: SendResult;
  try {
    if (row.endpoint_status !== "enabled") result = failure("endpoint_disabled");
    else {
      const format = webhookFormat(row.format);
      const bodyKey = `${row.format}:${row.event_id}`;
      let body = bodies.get(bodyKey);
      if (body === undefined) bodies.set(bodyKey, (body = format.body(row)));
      const active = [opened(row.secret_ciphertext)];
      if (row.previous_secret_ciphertext && row.previous_secret_expires_at && row.previous_secret_expires_at > attemptedAt)
        active.push(opened(row.previous_secret_ciphertext));
      // The SDK's signer, so that what merchants verify with is exactly what signs (every format carries the
      // same t=,v1= scheme, in its own header).
      const signature = signWebhookPayload(active, body, Math.floor(attemptedAt.getTime() / 1000));
      result = await sendSignedPost(row.url, body, format.headers(row, signature, attemptedAt), mayUsePrivateAddresses());
    }
  } catch (err) {
    // One bad delivery (e.g. a secret that no longer decrypts) fails alone; the detail goes to the log.
    console.error(`webhook delivery ${row.id} could not be sent:`, err instanceof Error ? err.message : err);
    result = failure("internal_error");
  }
  const delay = result.ok ? null : retryDelaySeconds(row.attempts);
  return { row, result, attemptedAt, nextAttemptAt: delay === null ? null : new Date(attemptedAt.getTime() + delay * 1000) };
}

// ONE statement per flush, no BEGIN/COMMIT round trips (a statement is all-or-nothing): the log row of each
// attempt, the queue rows, the endpoints' health. $1-$11 one entry per outcome (times as epoch ms: cheaper
// to send than dates), $12 endpoints with a success in the flush, $13 endpoints with failures only, $14 how
// long an endpoint may fail before it is disabled. A queue row is updated only while still leased to this
// sender (same attempt number): a lease that ran out and was claimed again by another sender is not
// overwritten. The two endpoint sets are disjoint (no row updated twice), each locked in id order.
const RECORD_OUTCOMES = statement(
  "webhook_record_outcomes",
  `WITH o AS (
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[], $10::float8[], $11::float8[])
       AS o(id, delivery_id, endpoint_id, event_id, status, attempt, response_status, duration_ms, error, attempted_ms, next_ms)
   ), logged AS (
     INSERT INTO webhook_delivery_attempts (id, delivery_id, endpoint_id, event_id, status, attempt, response_status, duration_ms, error, attempted_at, next_attempt_at)
     SELECT id, delivery_id, endpoint_id, event_id, status, attempt, response_status, duration_ms, error, to_timestamp(attempted_ms / 1000), to_timestamp(next_ms / 1000)
       FROM o
   ), queued AS (
     UPDATE webhook_deliveries d
        SET status = CASE WHEN o.status = 'succeeded' THEN 'succeeded' WHEN o.next_ms IS NULL THEN 'failed' ELSE 'pending' END,
            next_attempt_at = to_timestamp(COALESCE(o.next_ms, o.attempted_ms) / 1000), locked_until = NULL
       FROM o WHERE d.id = o.delivery_id AND d.status = 'sending' AND d.attempts = o.attempt
   ), healed AS (
     UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY($12::text[]) AND failing_since IS NOT NULL
   ), failing AS (
     UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, now()),
            status = CASE WHEN COALESCE(failing_since, now()) < now() - make_interval(secs => $14::float8) THEN 'disabled' ELSE status END
      WHERE id = ANY($13::text[]) AND (failing_since IS NULL OR status = 'enabled')
   )
   SELECT 1`,
);

/** Records a set of finished attempts in one statement: the log, the queue rows, the endpoints' health. */
export async function recordOutcomes(outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const n = outcomes.length;
  const ids: string[] = new Array(n);
  const deliveryIds: string[] = new Array(n);
  const endpointIds: string[] = new Array(n);
  const eventIds: string[] = new Array(n);
  const statuses: string[] = new Array(n);
  const attempts: number[] = new Array(n);
  const responseStatuses: (number | null)[] = new Array(n);
  const durations: number[] = new Array(n);
  const errors: (string | null)[] = new Array(n);
  const attemptedMs: number[] = new Array(n);
  const nextMs: (number | null)[] = new Array(n);
  const succeeded = new Set<string>();
  const failed = new Set<string>();
  for (let i = 0; i < n; i++) {
    const { row, result, attemptedAt, nextAttemptAt } = outcomes[i];
    ids[i] = createId("deliveryAttempt");
    deliveryIds[i] = row.id;
    endpointIds[i] = row.endpoint_id;
    eventIds[i] = row.event_id;
    statuses[i] = result.ok ? "succeeded" : "failed";
    attempts[i] = row.attempts; // counted up by the claim: this attempt's number
    responseStatuses[i] = result.responseStatus;
    durations[i] = result.durationMs;
    errors[i] = result.error;
    attemptedMs[i] = attemptedAt.getTime();
    nextMs[i] = nextAttemptAt?.getTime() ?? null;
    (result.ok ? succeeded : failed).add(row.endpoint_id);
  }
  const failingOnly = [...failed].filter((id) => !succeeded.has(id)).sort();
  await sql().count(RECORD_OUTCOMES, [
    ids,
    deliveryIds,
    endpointIds,
    eventIds,
    statuses,
    attempts,
    responseStatuses,
    durations,
    errors,
    attemptedMs,
    nextMs,
    [...succeeded].sort(),
    failingOnly,
    env.WEBHOOK_DISABLE_AFTER_HOURS * 3600,
  ]);
}

/**
 * The engine: keeps up to WEBHOOK_CONCURRENCY attempts in flight, claims more as slots free up, records
 * finished ones in flushes. `pump()` claims while there is room and due work.
 */
class SenderEngine {
  inFlight = 0;
  sent = 0;
  private pending: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private pumping = false;
  private pumpAgain = false;
  private idle: (() => void)[] = [];

  constructor(private readonly onSlotFree: () => void) {}

  private recording: Outcome[] = [];

  /** Attempts finished but not recorded yet: no longer in flight, so the claim does not count them. */
  private finishedIds(): string[] {
    return [...this.pending, ...this.recording].map((o) => o.row.id);
  }

  /** Finished attempts not recorded yet. */
  get unrecorded(): boolean {
    return this.pending.length > 0 || this.flushing !== null;
  }

  /** Claims and starts sends while there is room; returns how many it claimed. */
  async pump(): Promise<number> {
    if (this.pumping) return ((this.pumpAgain = true), 0);
    this.pumping = true;
    let claimed = 0;
    try {
      do {
        this.pumpAgain = false;
        for (;;) {
          const room = env.WEBHOOK_CONCURRENCY - this.inFlight;
          if (room <= 0) {
            const reserve = env.WEBHOOK_CONCURRENCY + RESERVE - this.inFlight;
            if (reserve > 0) {
              const rows = await claimDue(Math.min(reserve, 8), true, this.finishedIds());
              claimed += rows.length;
              this.start(rows);
            }
            break;
          }
          const want = Math.min(room, env.WEBHOOK_BATCH_SIZE);
          const rows = await claimDue(want, false, this.finishedIds());
          claimed += rows.length;
          this.start(rows);
          if (rows.length < want) break;
        }
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
    return claimed;
  }

  private start(rows: ClaimedRow[]) {
    const bodies = new Map<string, string>();
    for (const row of rows) {
      this.inFlight++;
      void sendOne(row, bodies).then((outcome) => {
        this.inFlight--;
        this.sent++;
        this.pending.push(outcome);
        this.scheduleFlush();
        this.onSlotFree();
      });
    }
  }

  private scheduleFlush() {
    if (this.pending.length >= FLUSH_MAX) return void this.flush();
    this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_WAIT_MS);
  }

  /** Records what has finished; one flush at a time (the next one takes what piled up meanwhile). */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.flushing) return this.flushing.then(() => (this.pending.length ? this.flush() : undefined));
    const batch = this.pending.splice(0);
    if (batch.length === 0) return Promise.resolve();
    this.recording = batch;
    this.flushing = recordOutcomes(batch)
      .catch((err) => logUnlessDatabaseDown("webhook sender: recording failed (the leases will run out and the attempts be retried):", err))
      .finally(() => {
        this.flushing = null;
        this.recording = [];
        if (this.pending.length) this.scheduleFlush();
        if (this.inFlight === 0 && !this.pending.length) for (const resolve of this.idle.splice(0)) resolve();
        // Recorded rows no longer count against their endpoint's and merchant's caps: claim again.
        this.onSlotFree();
      });
    return this.flushing;
  }

  /** Resolves when nothing is in flight and everything finished is recorded. */
  async drained(): Promise<void> {
    while (this.inFlight > 0 || this.pending.length || this.flushing) {
      if (this.inFlight === 0) await this.flush();
      else await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }
}

/** One fan-out batch; true when more may be waiting (the batch was full). */
async function fanOutBatch(): Promise<boolean> {
  return (await fanOutEvents()) === FAN_OUT_BATCH;
}

/**
 * The cron tick's sender where nothing runs in the background: claims until the budget is used up or
 * nothing is due, then waits for the attempts in flight (each at most WEBHOOK_TIMEOUT_MS) and records them.
 */
export async function runSenderOnce(budgetMs = env.WEBHOOK_TICK_BUDGET_MS): Promise<number> {
  const deadline = Date.now() + budgetMs;
  let wake: (() => void) | null = null;
  const engine = new SenderEngine(() => wake?.());
  // Fan-out and sends interleave: the first batch's deliveries go out while the next batch is fanned out.
  let fanOutLeft = true;
  while (Date.now() < deadline) {
    if (fanOutLeft) fanOutLeft = await fanOutBatch();
    const claimed = await engine.pump();
    if (fanOutLeft) continue;
    if (claimed === 0 && engine.inFlight === 0 && !engine.unrecorded) break; // nothing due
    // Wait for CLAIM_MIN sends to finish or flushes to land (either frees room), CLAIM_WAIT_MS, or the deadline.
    await new Promise<void>((resolve) => {
      let freed = 0;
      wake = () => void (++freed >= CLAIM_MIN && resolve());
      setTimeout(resolve, Math.max(0, Math.min(CLAIM_WAIT_MS, deadline - Date.now()))).unref();
    });
    wake = null;
  }
  await engine.drained();
  return engine.sent;
}

// ---- The long-running server's own loop --------------------------------------------------------------

interface Background {
  engine: SenderEngine;
  wake: () => void;
  committed: () => void;
}
/** This process's running loop, if it started one. */
const loop = globalSingleton("webhooks.background-sender", (): { current?: Background } => ({}));

/** Whether this process runs the background sender (then the tick only wakes it). */
export function backgroundSenderRunning(): boolean {
  return loop.current !== undefined;
}

/** Wakes this process's background sender, if it runs one, to fan out and claim whatever is due (the tick, a reconnection). */
export function wakeBackgroundSender(): boolean {
  loop.current?.wake();
  return loop.current !== undefined;
}

/** Tells this process's background sender, if it runs one, that a commit inserted events: it fans out and claims. */
export function eventsCommitted(): void {
  loop.current?.committed();
}

/**
 * While commits keep coming, their wake-ups make a round (a fan-out and a claim) at most this often: one fan-out takes
 * the events of every commit meanwhile, and a busy server does not pay a fan-out and a claim per sale. The first
 * commit after a quiet spell waits 2 ms.
 */
const COMMIT_ROUND_SPACING_MS = 50;

export function startBackgroundSender(): void {
  if (loop.current) return;
  let running = false;
  let again = false;
  let fanOutNeeded = true;
  let nextCommitRound = -Infinity;
  const run = async () => {
    if (running) return void (again = true);
    running = true;
    try {
      do {
        again = false;
        if (fanOutNeeded) {
          fanOutNeeded = false;
          // One batch, then sends: a large burst's first deliveries go out while the rest is fanned out.
          if (await fanOutBatch()) fanOutNeeded = again = true;
        }
        // Also when the fan-out queued nothing: a commit may have queued deliveries itself (a resend, a test event).
        await engine.pump();
      } while (again);
    } catch (err) {
      // Woken again by the next commit, finished send or tick; a database outage is logged once, by its breaker.
      logUnlessDatabaseDown("webhook sender:", err);
    } finally {
      running = false;
    }
  };
  // Debounce: the wake-ups of one burst of commits (and of sends finishing together) make one round. A
  // commit after a quiet spell claims within 2 ms (later ones: committed, below); finished sends claim again once CLAIM_MIN slots are free or after
  // CLAIM_WAIT_MS, so that under load claims are few and large (each costs about the same in Postgres
  // whatever it takes: docs/BENCHMARKS.md) rather than one per finished send.
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let freed = 0;
  const schedule = (delayMs: number) => {
    const at = Date.now() + delayMs;
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = null;
      timerAt = Infinity;
      freed = 0;
      void run();
    }, delayMs);
  };
  // A finished send frees a slot (of the process, its endpoint, its merchant): claim again.
  const engine = new SenderEngine(() => schedule(++freed >= CLAIM_MIN ? 0 : CLAIM_WAIT_MS));
  const wake = () => {
    fanOutNeeded = true;
    schedule(2);
  };
  // A commit rides on the commit round already coming, or makes the next: 2 ms away after a quiet spell, else
  // COMMIT_ROUND_SPACING_MS after the last one. schedule() keeps the earliest timer, so a round is always coming.
  const committed = () => {
    fanOutNeeded = true;
    const now = Date.now();
    if (nextCommitRound <= now) nextCommitRound = Math.max(now + 2, nextCommitRound + COMMIT_ROUND_SPACING_MS);
    schedule(nextCommitRound - now);
  };
  loop.current = { engine, wake, committed };
  wake();
}
