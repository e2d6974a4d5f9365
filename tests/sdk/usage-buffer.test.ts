// The SDK's usage buffer (packages/sdk/src/usage-buffer.ts) against a send function standing in for
// POST /v1/meters/usage_batches (the real endpoint: tests/sdk/metered-buffered.http.test.ts): batches by
// size and by interval, flush(), close(), bounded memory ("wait" and "throw"), a failed batch re-sent
// first with the same Idempotency-Key, refused records handed to onRefused and never re-sent.
import { describe, expect, it } from "vitest";
import {
  ServiceError,
  usageBuffer,
  UsageBufferFullError,
  type MeterUsageBatch,
  type MeterUsageBatchRecord,
  type RefusedUsage,
} from "agent-payments-sdk";

const rec = (i: number, meterId = "mtr_a"): MeterUsageBatchRecord => ({
  meterId,
  quantity: 1,
  unitPriceMinor: 400_000,
  idempotencyKey: `k${i}`,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stand-in service: counts each (meter, key) once, answers per record; `fail` scripts failures per call. */
function fakeService(fail: (n: number, records: MeterUsageBatchRecord[]) => Error | null = () => null) {
  const counted = new Set<string>();
  const calls: { records: MeterUsageBatchRecord[]; key: string; at: number }[] = [];
  const send = async (records: MeterUsageBatchRecord[], key: string): Promise<MeterUsageBatch> => {
    calls.push({ records, key, at: Date.now() });
    await sleep(5);
    const err = fail(calls.length - 1, records);
    if (err) throw err;
    const results = records.map((r) => {
      if (r.meterId === "mtr_closed")
        return {
          idempotencyKey: r.idempotencyKey,
          meterId: r.meterId,
          status: "refused" as const,
          error: { code: "CONFLICT", message: "closed" },
        };
      const pair = `${r.meterId}/${r.idempotencyKey}`;
      const status = counted.has(pair) ? ("duplicate" as const) : ("accepted" as const);
      counted.add(pair);
      return { idempotencyKey: r.idempotencyKey, meterId: r.meterId, status, usageRecordId: `mu_${pair}` };
    });
    const n = (s: string) => results.filter((r) => r.status === s).length;
    return { object: "usage_batch", accepted: n("accepted"), duplicates: n("duplicate"), refused: n("refused"), results };
  };
  return { send, calls, counted };
}

describe("usage buffer", () => {
  it("sends full batches at once, the rest on the interval, and flush() waits for the acknowledgement", async () => {
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await sleep(25);
    };
    // Under a batch: nothing goes before the interval, then one batch of what waits.
    const service = fakeService();
    const timed = usageBuffer(service.send, { maxBatchSize: 100, flushIntervalMs: 300, flushOnExit: false });
    const firstAdd = Date.now();
    for (let i = 0; i < 30; i++) await timed.add(rec(i));
    await until(() => service.calls.length > 0);
    expect(service.calls.map((c) => c.records.length)).toEqual([30]);
    expect(service.calls[0].at - firstAdd).toBeGreaterThanOrEqual(290);
    await until(() => timed.size === 0);
    expect(timed.size).toBe(0);
    await timed.close();

    // A full batch goes at once, without the interval (an hour here); what is left waits for flush().
    const bySize = fakeService();
    const buffer = usageBuffer(bySize.send, { maxBatchSize: 100, flushIntervalMs: 3_600_000, flushOnExit: false });
    for (let i = 0; i < 220; i++) await buffer.add(rec(i));
    await until(() => bySize.counted.size >= 200);
    expect(bySize.counted.size).toBeGreaterThanOrEqual(200);
    expect(bySize.calls.every((c) => c.records.length <= 100)).toBe(true);
    await buffer.flush();
    expect(buffer.size).toBe(0);
    expect(bySize.counted.size).toBe(220);
    expect(bySize.calls.reduce((sum, c) => sum + c.records.length, 0)).toBe(220);
    expect(new Set(bySize.calls.map((c) => c.key)).size).toBe(bySize.calls.length);

    await buffer.add(rec(999));
    await buffer.flush();
    expect(bySize.counted.has("mtr_a/k999")).toBe(true);
    await buffer.close();
    await expect(buffer.add(rec(1000))).rejects.toThrow(/closed/);
  });

  it("a failed batch stays first in line and is re-sent with the same Idempotency-Key; nothing is lost or counted twice", async () => {
    let failures = 2;
    const service = fakeService(() =>
      failures-- > 0 ? new ServiceError({ code: "network_error", status: 0, message: "connection reset" }) : null,
    );
    const errors: unknown[] = [];
    const buffer = usageBuffer(service.send, {
      maxBatchSize: 10,
      flushIntervalMs: 0,
      flushOnExit: false,
      onFlushError: (e) => errors.push(e),
    });
    for (let i = 0; i < 10; i++) await buffer.add(rec(i)); // a full batch: sent in the background, fails
    for (let i = 0; i < 200 && errors.length === 0; i++) await sleep(25);
    expect(errors).toHaveLength(1);
    for (let i = 10; i < 15; i++) await buffer.add(rec(i));
    await expect(buffer.flush()).rejects.toThrow(/connection reset/); // the second failure
    expect(buffer.size).toBe(15);
    await buffer.flush();
    expect(buffer.size).toBe(0);
    expect(service.counted.size).toBe(15);
    // The first batch was sent three times under one key, then the rest under its own.
    expect(service.calls.map((c) => [c.key, c.records.length])).toEqual([
      [service.calls[0].key, 10],
      [service.calls[0].key, 10],
      [service.calls[0].key, 10],
      [service.calls[3].key, 5],
    ]);
    expect(service.calls[3].key).not.toBe(service.calls[0].key);
  });

  it("refused records go to onRefused once; a 400 naming records drops those and sends the rest", async () => {
    const service = fakeService((n, records) =>
      n === 0 && records.some((r) => r.quantity === 0)
        ? new ServiceError({
            code: "VALIDATION_ERROR",
            status: 400,
            message: "bad",
            details: { fields: [{ path: "records.1.quantity", message: "too small" }] },
          })
        : null,
    );
    const refused: RefusedUsage[] = [];
    const buffer = usageBuffer(service.send, { flushIntervalMs: 0, flushOnExit: false, onRefused: (r) => refused.push(...r) });
    await buffer.add(rec(0));
    await buffer.add({ ...rec(1), quantity: 0 });
    await buffer.add(rec(2, "mtr_closed"));
    await buffer.add(rec(3));
    await buffer.flush();
    expect(refused.map((r) => [r.record.idempotencyKey, r.error.code])).toEqual([
      ["k1", "VALIDATION_ERROR"],
      ["k2", "CONFLICT"],
    ]);
    expect([...service.counted]).toEqual(["mtr_a/k0", "mtr_a/k3"]);
    expect(service.calls).toHaveLength(2);
    expect(service.calls[1].key).not.toBe(service.calls[0].key); // another body, another key
    await buffer.flush(); // nothing left: nothing re-sent
    expect(service.calls).toHaveLength(2);
  });

  it("bounded memory: 'throw' refuses a record at once when full; 'wait' waits for a flush to make room", async () => {
    let down = true;
    const service = fakeService(() => (down ? new ServiceError({ code: "service_unavailable", status: 503, message: "down" }) : null));
    const quiet = { flushOnExit: false, onFlushError: () => undefined };
    const throwing = usageBuffer(service.send, {
      maxBatchSize: 5,
      maxBufferedRecords: 10,
      flushIntervalMs: 0,
      whenFull: "throw",
      ...quiet,
    });
    for (let i = 0; i < 10; i++) await throwing.add(rec(i));
    const full = await throwing.add(rec(10)).catch((e) => e);
    expect(full).toBeInstanceOf(UsageBufferFullError);
    expect(throwing.size).toBe(10);

    const waiting = usageBuffer(service.send, { maxBatchSize: 5, maxBufferedRecords: 10, flushIntervalMs: 20, maxWaitMs: 5_000, ...quiet });
    for (let i = 0; i < 10; i++) await waiting.add(rec(i, "mtr_b"));
    let added = false;
    const eleventh = waiting.add(rec(10, "mtr_b")).then(() => (added = true));
    await sleep(100);
    expect(added).toBe(false); // the service is down: still waiting, memory stays bounded
    expect(waiting.size).toBe(10);
    down = false;
    await eleventh;
    expect(added).toBe(true);
    await waiting.flush();
    expect([...service.counted].filter((p) => p.startsWith("mtr_b/"))).toHaveLength(11);

    const timedOut = usageBuffer(
      async () => Promise.reject(new ServiceError({ code: "service_unavailable", status: 503, message: "down" })),
      {
        maxBatchSize: 1,
        maxBufferedRecords: 1,
        flushIntervalMs: 10,
        maxWaitMs: 100,
        ...quiet,
      },
    );
    await timedOut.add(rec(0));
    await expect(timedOut.add(rec(1))).rejects.toBeInstanceOf(UsageBufferFullError);
    await Promise.all([throwing, waiting, timedOut].map((b) => b.close().catch(() => undefined)));
  });

  it("refuses settings outside the service's limits", () => {
    const send = fakeService().send;
    expect(() => usageBuffer(send, { maxBatchSize: 1001 })).toThrow(/maxBatchSize/);
    expect(() => usageBuffer(send, { maxBatchSize: 100, maxBufferedRecords: 50 })).toThrow(/maxBufferedRecords/);
    expect(() => usageBuffer(send, { flushIntervalMs: -1 })).toThrow(/flushIntervalMs/);
  });
});
