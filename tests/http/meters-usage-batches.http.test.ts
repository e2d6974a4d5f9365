// POST /v1/meters/usage_batches (docs/meters.md "Usage in batches"): post-paid records in batches, each counted
// once by its (meter, idempotencyKey) however batches are retried, overlap or race (also across two server
// processes), per-record results, strict validation, and threshold settlements that bill each minor unit once.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tickUntilSettled } from "../helpers/meters";
import { createCustomer, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

const PRICE = 400_000; // 0.4 of a cent in base units
const PER_MINOR = 1_000_000;

let m: TestMerchant;
let customerId: string;
beforeEach(async () => {
  m = await createTestMerchant();
  customerId = (await createCustomer(m.testKey)).id;
});

async function openMeter(body: Record<string, unknown> = {}, key = m.testKey) {
  const res = await call("POST", "/v1/meters", {
    key,
    body: { customerId, currency: "usd", thresholdMinor: 100, prepaid: false, paymentMethod: "pm_card_visa", ...body },
  });
  if (res.status !== 201) throw new Error(`open meter: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

interface Rec {
  meterId: string;
  quantity: number;
  unitPriceMinor: number;
  idempotencyKey: string;
  timestamp?: string;
}

const rec = (meterId: string, idempotencyKey: string, quantity = 1, unitPriceMinor = PRICE): Rec => ({
  meterId,
  quantity,
  unitPriceMinor,
  idempotencyKey,
});
const batch = (records: unknown, opts: { key?: string; base?: string; idempotencyKey?: string } = {}) =>
  call("POST", "/v1/meters/usage_batches", {
    key: opts.key ?? m.testKey,
    base: opts.base,
    body: { records },
    headers: opts.idempotencyKey ? { "Idempotency-Key": opts.idempotencyKey } : undefined,
  });
const meterOf = async (id: string, base?: string) => (await call("GET", `/v1/meters/${id}`, { key: m.testKey, base })).body;
const paymentsOf = async (meterId: string) =>
  (await call("GET", `/v1/payment_intents?meterId=${meterId}&limit=100`, { key: m.testKey })).body.data;
const amountOf = (records: Rec[]) => records.reduce((sum, r) => sum + r.quantity * r.unitPriceMinor, 0);
const statuses = (body: { results: { status: string }[] }) => body.results.map((r) => r.status);

/** After the tick: everything metered is billed or still accrued, to the base unit, and every minor unit billed was charged once. */
async function expectBooks(meterId: string, expectedUsedBase: number) {
  await tickUntilSettled(meterId);
  const meter = await meterOf(meterId);
  expect(meter.usedBase).toBe(expectedUsedBase);
  expect(meter.billedMinor * PER_MINOR + meter.accruedBase).toBe(expectedUsedBase);
  const pis = await paymentsOf(meterId);
  expect(pis.every((p: { status: string }) => p.status === "settled")).toBe(true);
  expect(pis.reduce((sum: number, p: { amountCaptured: number }) => sum + p.amountCaptured, 0)).toBe(meter.billedMinor);
  expect(pis).toHaveLength(meter.settlementCount);
  return meter;
}

describe("usage batches: deduplication", () => {
  it("records a batch across meters; the same batch again counts nothing more; an Idempotency-Key replays the answer", async () => {
    const [a, b] = [await openMeter(), await openMeter()];
    const records = [rec(a.id, "k1", 3), rec(b.id, "k1", 2), rec(a.id, "k2", 1, 7)];
    const first = await batch(records);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      object: "usage_batch",
      accepted: 3,
      duplicates: 0,
      refused: 0,
      results: records.map((r) => ({
        idempotencyKey: r.idempotencyKey,
        meterId: r.meterId,
        status: "accepted",
        usageRecordId: expect.stringMatching(/^mu_/),
      })),
    });
    const again = await batch(records);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 3, refused: 0 });
    expect(again.body.results.map((r: { usageRecordId: string }) => r.usageRecordId)).toEqual(
      first.body.results.map((r: { usageRecordId: string }) => r.usageRecordId),
    );
    expect(await meterOf(a.id)).toMatchObject({ accruedBase: 3 * PRICE + 7, usedBase: 3 * PRICE + 7 });
    expect(await meterOf(b.id)).toMatchObject({ accruedBase: 2 * PRICE });

    // The batch itself is idempotent: the same header replays the first answer; another body under it is 400.
    const withKey = [rec(a.id, "k3")];
    const keyed = await batch(withKey, { idempotencyKey: "batch-1" });
    const replayed = await batch(withKey, { idempotencyKey: "batch-1" });
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(keyed.body);
    expect(keyed.body.accepted).toBe(1);
    expect((await batch([rec(a.id, "k4")], { idempotencyKey: "batch-1" })).status).toBe(400);
    expect((await meterOf(a.id)).usedBase).toBe(4 * PRICE + 7);
  });

  it("overlapping batches and the single-record path share one key space per meter", async () => {
    const meter = await openMeter();
    const keys = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => rec(meter.id, `k${from + i}`));
    expect((await batch(keys(0, 10))).body).toMatchObject({ accepted: 10, duplicates: 0 });
    const overlap = await batch(keys(5, 15));
    expect(statuses(overlap.body)).toEqual([...Array(5).fill("duplicate"), ...Array(5).fill("accepted")]);
    // A record counted by POST /v1/meters/:id/usage is a duplicate in a batch, and the reverse is a replay.
    const single = await call("POST", `/v1/meters/${meter.id}/usage`, {
      key: m.testKey,
      body: { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "s1" },
    });
    expect(single.status).toBe(201);
    const mixed = await batch([rec(meter.id, "s1"), rec(meter.id, "k15")]);
    expect(mixed.body.results).toEqual([
      { idempotencyKey: "s1", meterId: meter.id, status: "duplicate", usageRecordId: single.body.id },
      { idempotencyKey: "k15", meterId: meter.id, status: "accepted", usageRecordId: expect.any(String) },
    ]);
    const replay = await call("POST", `/v1/meters/${meter.id}/usage`, {
      key: m.testKey,
      body: { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "k15" },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(mixed.body.results[1].usageRecordId);
    // The same key twice in one batch counts once; other usage under a counted key is refused, as on the single path.
    const inBatch = await batch([rec(meter.id, "k16"), rec(meter.id, "k16"), rec(meter.id, "k16", 2), rec(meter.id, "k0", 9)]);
    expect(statuses(inBatch.body)).toEqual(["accepted", "duplicate", "refused", "refused"]);
    expect(inBatch.body.results[1].usageRecordId).toBe(inBatch.body.results[0].usageRecordId);
    expect(inBatch.body.results[2].error.code).toBe("VALIDATION_ERROR");
    expect(inBatch.body.results[3].error.code).toBe("VALIDATION_ERROR");
    expect((await meterOf(meter.id)).usedBase).toBe(18 * PRICE); // k0..k16 and s1
  });

  it("20 concurrent copies of one batch count each record once", async () => {
    const [a, b] = [await openMeter(), await openMeter()];
    const records = Array.from({ length: 50 }, (_, i) => rec(i % 2 ? a.id : b.id, `c${i}`, 1 + (i % 3)));
    const answers = await Promise.all(Array.from({ length: 20 }, () => batch(records)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    // Every record is accepted by exactly one copy, and every copy names the same record for it.
    for (let i = 0; i < records.length; i++) {
      expect(answers.filter((r) => r.body.results[i].status === "accepted")).toHaveLength(1);
      expect(new Set(answers.map((r) => r.body.results[i].usageRecordId)).size).toBe(1);
    }
    expect(answers.reduce((sum, r) => sum + r.body.accepted, 0)).toBe(50);
    expect((await meterOf(a.id)).usedBase + (await meterOf(b.id)).usedBase).toBe(amountOf(records));
    expect((await meterOf(a.id)).usedBase).toBe(amountOf(records.filter((r) => r.meterId === a.id)));
  });
});

describe("usage batches: per-record results", () => {
  it("refuses unknown, foreign, other-mode, prepaid, closed and past-due meters per record; the rest is counted", async () => {
    const open = await openMeter();
    const prepaid = await openMeter({ prepaid: true, budgetMinor: 10 });
    const closed = await openMeter();
    expect((await call("POST", `/v1/meters/${closed.id}/close`, { key: m.testKey, body: {} })).status).toBe(200);
    const pastDue = await openMeter({ thresholdMinor: 1, paymentMethod: "pm_card_chargeDeclined" });
    await batch([rec(pastDue.id, "big", 5)]);
    await tickUntilSettled(pastDue.id);
    expect((await meterOf(pastDue.id)).status).toBe("past_due");
    const other = await createTestMerchant();
    const otherCustomer = (await createCustomer(other.testKey)).id;
    const foreign = await openMeter({ customerId: otherCustomer }, other.testKey);

    const records = [
      rec(open.id, "a"),
      rec("mtr_doesnotexist000000000000", "b"),
      rec(foreign.id, "c"),
      rec(prepaid.id, "d"),
      rec(closed.id, "e"),
      rec(pastDue.id, "f"),
      rec(pastDue.id, "big", 5), // counted before the decline: still a duplicate, as the single path replays it
      rec(open.id, "g", 2),
    ];
    const res = await batch(records);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accepted: 2, duplicates: 1, refused: 5 });
    expect(res.body.results.map((r: { status: string; error?: { code: string } }) => [r.status, r.error?.code])).toEqual([
      ["accepted", undefined],
      ["refused", "NOT_FOUND"],
      ["refused", "NOT_FOUND"],
      ["refused", "CONFLICT"],
      ["refused", "CONFLICT"],
      ["refused", "PAYMENT_DECLINED"],
      ["duplicate", undefined],
      ["accepted", undefined],
    ]);
    expect(res.body.results[1]).toEqual({
      idempotencyKey: "b",
      meterId: "mtr_doesnotexist000000000000",
      status: "refused",
      error: { code: "NOT_FOUND", message: expect.any(String) },
    });
    // The single-record path's refusals, word for word.
    const single = await call("POST", `/v1/meters/${prepaid.id}/usage`, {
      key: m.testKey,
      body: { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "d" },
    });
    expect(single.status).toBe(409);
    expect(res.body.results[3].error).toEqual({ code: single.body.error.code, message: single.body.error.message });
    expect(res.body.results[2].error.message).not.toContain(otherCustomer);
    expect(await meterOf(open.id)).toMatchObject({ usedBase: 3 * PRICE });
    expect(await meterOf(prepaid.id)).toMatchObject({ usedBase: 0, reservedBase: 0 });
    expect((await call("GET", `/v1/meters/${foreign.id}`, { key: other.testKey })).body.usedBase).toBe(0);
    // The other mode's key sees no meter of test mode.
    const live = await batch([rec(open.id, "h")], { key: m.liveKey });
    expect(live.body.results[0]).toMatchObject({ status: "refused", error: { code: "NOT_FOUND" } });
    expect((await meterOf(open.id)).usedBase).toBe(3 * PRICE);
  });

  it("a record that would pass the unbilled limit is refused; the records before it are counted", async () => {
    const meter = await openMeter({ baseUnitsPerMinor: 1 }); // limit: 99,999,999 base units
    const res = await batch([
      rec(meter.id, "a", 1, 60_000_000),
      rec(meter.id, "b", 1, 60_000_000),
      rec(meter.id, "c", 1, 1),
      rec(meter.id, "d", 1, 100_000_000),
    ]);
    expect(res.body.results.map((r: { status: string; error?: { code: string } }) => [r.status, r.error?.code])).toEqual([
      ["accepted", undefined],
      ["refused", "CONFLICT"],
      ["accepted", undefined],
      ["refused", "VALIDATION_ERROR"],
    ]);
    expect((await meterOf(meter.id)).accruedBase).toBe(60_000_001);
  });
});

describe("usage batches: prepaid meters", () => {
  it("prepaid records in batches racing reservations and commits are refused CONFLICT; the budget is never overdrawn", async () => {
    const prepaid = await openMeter({ prepaid: true, budgetMinor: 5 }); // 5 cents: 12 calls of 0.4 cent fit, not 13
    const postpaid = await openMeter();
    const reserveAndCommit = async (i: number): Promise<number> => {
      const held = await call("POST", `/v1/meters/${prepaid.id}/reservations`, {
        key: m.testKey,
        body: { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: `r${i}` },
      });
      if (held.status === 402) return 0;
      expect(held.status).toBe(201);
      const done = await call("POST", `/v1/meters/${prepaid.id}/reservations/${held.body.id}/commit`, { key: m.testKey, body: {} });
      expect(done.status).toBe(200);
      return 1;
    };
    // 20 reservations (each committed) race 10 batches that each carry prepaid records between post-paid ones.
    const batches = Array.from({ length: 10 }, (_, b) => [
      rec(postpaid.id, `q${b}a`),
      rec(prepaid.id, `p${b}`, 5),
      rec(prepaid.id, `r${b}`),
      rec(postpaid.id, `q${b}b`),
    ]);
    const [committed, answers] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, (_, i) => reserveAndCommit(i))),
      Promise.all(batches.map((records) => batch(records))),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { status: string; error?: { code: string } }) => [r.status, r.error?.code])).toEqual([
        ["accepted", undefined],
        ["refused", "CONFLICT"],
        ["refused", "CONFLICT"],
        ["accepted", undefined],
      ]);
    }
    const calls = committed.reduce((sum: number, n) => sum + n, 0);
    expect(calls).toBe(12);
    const meter = await meterOf(prepaid.id);
    expect(meter).toMatchObject({
      usedBase: 12 * PRICE,
      reservedBase: 0,
      budgetBase: 5 * PER_MINOR,
      accruedBase: 0,
      availableBase: 5 * PER_MINOR - 12 * PRICE,
    });
    expect(await getDb().meterUsageRecord.count({ where: { meterId: prepaid.id } })).toBe(0);
    expect((await meterOf(postpaid.id)).usedBase).toBe(20 * PRICE);
    // A batch on a prepaid meter with nothing left refuses the same way (never a 402, never a debit).
    const after = await batch([rec(prepaid.id, "late")]);
    expect(after.body.results[0]).toMatchObject({ status: "refused", error: { code: "CONFLICT" } });
    expect((await meterOf(prepaid.id)).usedBase).toBe(12 * PRICE);
  });
});

describe("usage batches: validation", () => {
  it("a malformed batch is 400 naming the record's field, and nothing is counted", async () => {
    const meter = await openMeter();
    const good = (i: number) => rec(meter.id, `v${i}`);
    const cases: [unknown, string][] = [
      [[good(0), good(1), good(2), { ...good(3), quantity: 0 }], "records.3.quantity"],
      [[good(0), { ...good(1), quantity: 1.5 }], "records.1.quantity"],
      [[good(0), { ...good(1), unitPriceMinor: -1 }], "records.1.unitPriceMinor"],
      [[{ ...good(0), idempotencyKey: "" }], "records.0.idempotencyKey"],
      [[{ quantity: 1, unitPriceMinor: 1, idempotencyKey: "x" }], "records.0.meterId"],
      [[{ ...good(0), extra: 1 }], "records.0"],
      [[{ ...good(0), timestamp: "yesterday" }], "records.0.timestamp"],
      [[{ ...good(0), timestamp: "2020-01-01T00:00:00Z" }], "records.0.timestamp"],
      [[{ ...good(0), timestamp: new Date(Date.now() + 3600_000).toISOString() }], "records.0.timestamp"],
      [[{ ...good(0), quantity: 1_000_000_000, unitPriceMinor: 1e12 }], "records.0.quantity"],
      [[], "records"],
      [Array.from({ length: 1001 }, (_, i) => good(i)), "records"],
      [{ meterId: meter.id }, "records"],
      [null, "records"],
    ];
    for (const [records, path] of cases) {
      const res = await batch(records);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(
        res.body.error.details.fields.map((f: { path: string }) => f.path),
        path,
      ).toContain(path);
    }
    expect((await meterOf(meter.id)).usedBase).toBe(0);
  });

  it("takes 1,000 records with long keys and timestamps in one request", async () => {
    const meter = await openMeter();
    const at = new Date(Date.now() - 3600_000).toISOString();
    const records = Array.from({ length: 1000 }, (_, i) => ({
      ...rec(meter.id, `${"k".repeat(240)}-${i}`, 1 + (i % 5), 1 + i),
      timestamp: at,
    }));
    expect(JSON.stringify({ records }).length).toBeGreaterThan(256 * 1024);
    const res = await batch(records);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accepted: 1000, duplicates: 0, refused: 0 });
    expect((await meterOf(meter.id)).usedBase).toBe(amountOf(records));
    // The stated time is kept on each record (occurred_at); the record was still written now.
    const stored = await getDb().meterUsageRecord.findMany({ where: { meterId: meter.id }, select: { occurredAt: true, createdAt: true } });
    expect(stored).toHaveLength(1000);
    expect(stored.every((r) => r.occurredAt?.toISOString() === at && r.createdAt.getTime() > Date.parse(at))).toBe(true);
  });
});

describe("usage batches: settlement", () => {
  it("crossings inside one batch flag the meter once; the tick bills each minor unit once, the fraction carries", async () => {
    const meter = await openMeter({ thresholdMinor: 1 });
    const records = Array.from({ length: 12 }, (_, i) => rec(meter.id, `t${i}`)); // 12 x 0.4 = 4.8 cents: the threshold crossed 4 times over
    expect((await batch(records)).body.accepted).toBe(12);
    const after = await expectBooks(meter.id, amountOf(records));
    expect(after).toMatchObject({ billedMinor: 4, accruedBase: 800_000, settlementCount: 1 });
    // Again (a retried batch) changes nothing.
    expect((await batch(records)).body.duplicates).toBe(12);
    await expectBooks(meter.id, amountOf(records));
  });

  it("concurrent overlapping batches with ticks running meanwhile bill the sum of distinct records exactly", async () => {
    const meter = await openMeter({ thresholdMinor: 1 });
    const all = Array.from({ length: 200 }, (_, i) => rec(meter.id, `x${i}`, 1 + (i % 4), PRICE + i));
    // Ten batches of 40 records, each overlapping the next by 20, sent twice over, with ticks in between.
    const batches = Array.from({ length: 10 }, (_, i) => all.slice(i * 16, i * 16 + 40));
    const ticking = (async () => {
      for (let i = 0; i < 10; i++) await tick();
    })();
    const answers = await Promise.all([...batches, ...batches].map((b) => batch(b)));
    await ticking;
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const sent = all.slice(0, 9 * 16 + 40);
    expect(answers.reduce((sum, r) => sum + r.body.accepted, 0)).toBe(sent.length);
    await expectBooks(meter.id, amountOf(sent));
  });
});

describe("usage batches: two server processes", () => {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("copies of the same batches raced through two processes, ticking both, count and bill each record once", async () => {
    servers.push(await startTestServer(), await startTestServer());
    const [one, two] = servers.map((s) => s.url);
    const [a, b] = [await openMeter({ thresholdMinor: 1 }), await openMeter({ thresholdMinor: 2 })];
    const records = Array.from({ length: 300 }, (_, i) => rec(i % 3 ? a.id : b.id, `p${i}`, 1 + (i % 7), PRICE - i));
    const chunks = [records.slice(0, 150), records.slice(100, 250), records.slice(200)];
    const sends = chunks.flatMap((chunk) => [one, two, one, two].map((base) => batch(chunk, { base })));
    const ticks = [one, two].map(async (base) => {
      for (let i = 0; i < 5; i++) await tick(base);
    });
    const answers = await Promise.all(sends);
    await Promise.all(ticks);
    expect(answers.map((r) => r.status)).toEqual(Array(sends.length).fill(200));
    expect(answers.reduce((sum, r) => sum + r.body.accepted, 0)).toBe(300);
    await expectBooks(a.id, amountOf(records.filter((r) => r.meterId === a.id)));
    await expectBooks(b.id, amountOf(records.filter((r) => r.meterId === b.id)));
  });
});
