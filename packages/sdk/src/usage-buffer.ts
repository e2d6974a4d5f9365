// Post-paid usage, buffered and sent in batches (POST /v1/meters/usage_batches) instead of one request per
// record: serviceMeteringBackend({ buffer }) puts each record here and answers at once; the buffer sends
// them when a batch is full (maxBatchSize), every flushIntervalMs, on flush() and on close() (and once
// when the process is about to exit). Trade-off: a record is at risk only until its batch is acknowledged
// (a crash of this process before then loses it); prepaid usage never goes through here.
//
// - Each record keeps its own idempotencyKey; a batch gets ONE Idempotency-Key when it is formed and
//   keeps it for every re-send, so a batch whose answer was lost is replayed by the service, and any
//   record sent twice counts once either way.
// - A batch that fails (network, 5xx, 429 after the client's own retries) stays queued, first in line, and
//   is re-sent by the next flush with the same key; the records behind it wait.
// - Bounded memory: at most maxBufferedRecords records are held (queued or being sent). When full,
//   "wait" (the default) makes recordUsage wait for room (a flush's acknowledgement) for at most maxWaitMs,
//   then throw UsageBufferFullError; "throw" throws at once. Nothing is ever dropped silently.
// - A record the service refused (unknown or closed meter, past due, over the unbilled limit, its key
//   reused with other usage) is not retried: it goes to onRefused (default: a console warning). A batch the
//   service refused whole (400 naming records) hands those records to onRefused and sends the rest again.
import { randomUUID } from "node:crypto";
import { ServiceError } from "./errors";
import type { MeterUsageBatch, MeterUsageBatchRecord } from "./types";

export interface UsageBufferOptions {
  /** Records per batch request, 1..1,000 (the service's limit). Default 1,000. */
  maxBatchSize?: number;
  /** Sends what is buffered at least this often, in ms. Default 1,000; 0 = only when a batch is full, on flush() and close(). */
  flushIntervalMs?: number;
  /** Records held at most (queued or being sent). Default 10,000. */
  maxBufferedRecords?: number;
  /** When full: "wait" for room (default; at most maxWaitMs, then UsageBufferFullError) or "throw" UsageBufferFullError at once. */
  whenFull?: "wait" | "throw";
  /** "wait" gives up after this long, in ms. Default 30,000. */
  maxWaitMs?: number;
  /** Records the service refused; they are not retried. Default: console.warn. */
  onRefused?: (refused: RefusedUsage[]) => void;
  /** A background flush failed; its records stay buffered and are re-sent with the same keys. Default: console.warn. */
  onFlushError?: (err: unknown) => void;
  /** Flush once more when the process is about to exit (Node's beforeExit). Default true. */
  flushOnExit?: boolean;
}

export interface RefusedUsage {
  record: MeterUsageBatchRecord;
  error: { code: string; message: string };
}

export class UsageBufferFullError extends Error {
  readonly code = "usage_buffer_full";
  constructor(readonly maxBufferedRecords: number) {
    super(`The usage buffer holds ${maxBufferedRecords} records not yet acknowledged by the service; the record was not buffered.`);
    this.name = "UsageBufferFullError";
  }
}

export type SendBatch = (records: MeterUsageBatchRecord[], idempotencyKey: string) => Promise<MeterUsageBatch>;

interface Batch {
  records: MeterUsageBatchRecord[];
  idempotencyKey: string;
}

export interface UsageBuffer {
  add(record: MeterUsageBatchRecord): Promise<void>;
  /** Sends everything buffered now; resolves when the service acknowledged it, rejects if a batch failed (it stays buffered). */
  flush(): Promise<void>;
  /** Stops the timer and flushes; later records are refused (Error). */
  close(): Promise<void>;
  /** Records held (queued or being sent). */
  readonly size: number;
}

const exiting = new Set<{ exitFlush: () => void }>();
let exitHooked = false;
function onExit(entry: { exitFlush: () => void }) {
  exiting.add(entry);
  if (exitHooked) return;
  exitHooked = true;
  process.on("beforeExit", () => {
    for (const e of exiting) e.exitFlush();
  });
}

export function usageBuffer(send: SendBatch, options: UsageBufferOptions = {}): UsageBuffer {
  const {
    maxBatchSize = 1000,
    flushIntervalMs = 1000,
    maxBufferedRecords = 10_000,
    whenFull = "wait",
    maxWaitMs = 30_000,
    flushOnExit = true,
    onRefused = (refused: RefusedUsage[]) =>
      console.warn(
        `usage buffer: the service refused ${refused.length} usage record(s):`,
        refused.map((r) => `${r.record.meterId}/${r.record.idempotencyKey}: ${r.error.code}`).join(", "),
      ),
    onFlushError = (err: unknown) =>
      console.warn("usage buffer: a flush failed; its records stay buffered and are sent again:", err instanceof Error ? err.message : err),
  } = options;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1 || maxBatchSize > 1000)
    throw new TypeError(`usage buffer: "maxBatchSize" must be an integer 1..1000; got ${String(maxBatchSize)}.`);
  if (!Number.isFinite(flushIntervalMs) || flushIntervalMs < 0)
    throw new TypeError(`usage buffer: "flushIntervalMs" must be a non-negative number; got ${String(flushIntervalMs)}.`);
  if (!Number.isInteger(maxBufferedRecords) || maxBufferedRecords < maxBatchSize) {
    throw new TypeError(
      `usage buffer: "maxBufferedRecords" must be an integer of at least maxBatchSize (${maxBatchSize}); got ${String(maxBufferedRecords)}.`,
    );
  }
  if (whenFull !== "wait" && whenFull !== "throw") throw new TypeError(`usage buffer: "whenFull" must be "wait" or "throw".`);

  const queue: MeterUsageBatchRecord[] = []; // not yet in a batch
  const batches: Batch[] = []; // formed, not yet acknowledged, oldest first
  let held = 0; // queue + batches
  let flushing: Promise<void> | null = null;
  let closed = false;
  let waiters: (() => void)[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  let exitAttempts = 0;

  const roomMade = () => {
    const ready = waiters;
    waiters = [];
    for (const wake of ready) wake();
  };

  const background = () => {
    flush().catch(onFlushError);
  };

  const exitEntry = {
    exitFlush: () => {
      // The loop is empty and records are held: one more try (a few at most, if the service is away).
      if (held > 0 && !flushing && exitAttempts++ < 3) background();
    },
  };

  async function sendAll(): Promise<void> {
    for (;;) {
      // Records that came while a batch was being sent join the line too.
      while (queue.length > 0) batches.push({ records: queue.splice(0, maxBatchSize), idempotencyKey: `ub_${randomUUID()}` });
      if (batches.length === 0) return;
      const batch = batches[0];
      let answer: MeterUsageBatch;
      try {
        answer = await send(batch.records, batch.idempotencyKey);
      } catch (err) {
        const named = refusedIndexes(err, batch.records.length);
        if (!named) throw err; // stays first in line, same key
        // The service refused the batch whole, naming records: those cannot succeed; the rest is sent again.
        onRefused(
          [...named].map((i) => ({
            record: batch.records[i],
            error: { code: (err as ServiceError).code, message: (err as ServiceError).message },
          })),
        );
        const rest = batch.records.filter((_, i) => !named.has(i));
        held -= named.size;
        if (rest.length > 0) batches[0] = { records: rest, idempotencyKey: `ub_${randomUUID()}` };
        else batches.shift();
        roomMade();
        continue;
      }
      batches.shift();
      held -= batch.records.length;
      const refused = answer.results.flatMap((result, i) =>
        result.status === "refused" && result.error ? [{ record: batch.records[i], error: result.error }] : [],
      );
      if (refused.length > 0) onRefused(refused);
      roomMade();
    }
  }

  function flush(): Promise<void> {
    // One flush at a time; a flush asked for while one runs follows it (and sends what came meanwhile).
    const run = (flushing ?? Promise.resolve()).catch(() => undefined).then(() => sendAll());
    const mine: Promise<void> = run.finally(() => {
      if (flushing === mine) flushing = null;
    });
    flushing = mine;
    return mine;
  }

  function startTimer() {
    if (timer || flushIntervalMs === 0) return;
    timer = setInterval(() => {
      if (held > 0 && !flushing) background();
    }, flushIntervalMs);
    timer.unref?.();
  }

  async function add(record: MeterUsageBatchRecord) {
    if (closed) throw new Error("usage buffer: closed; the record was not buffered.");
    if (held >= maxBufferedRecords) {
      if (whenFull === "throw") throw new UsageBufferFullError(maxBufferedRecords);
      const deadline = Date.now() + maxWaitMs;
      while (held >= maxBufferedRecords) {
        if (!flushing) background(); // make room
        const left = deadline - Date.now();
        if (left <= 0) throw new UsageBufferFullError(maxBufferedRecords);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, Math.max(50, flushIntervalMs || 1000)));
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    }
    queue.push({ ...record });
    held += 1;
    exitAttempts = 0;
    startTimer();
    if (queue.length >= maxBatchSize && !flushing) background();
  }

  if (flushOnExit) onExit(exitEntry);

  return {
    add,
    flush,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      exiting.delete(exitEntry);
      await flush();
    },
    get size() {
      return held;
    },
  };
}

/** The record positions a 400 VALIDATION_ERROR names (`records.3.quantity`), or null when it names none. */
function refusedIndexes(err: unknown, count: number): Set<number> | null {
  if (!(err instanceof ServiceError) || err.status !== 400) return null;
  const fields = (err.details as { fields?: { path?: string }[] }).fields ?? [];
  const named = new Set<number>();
  for (const field of fields) {
    const match = /^records\.(\d+)(\.|$)/.exec(field.path ?? "");
    if (match && Number(match[1]) < count) named.add(Number(match[1]));
  }
  return named.size > 0 ? named : null;
}
