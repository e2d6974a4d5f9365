// Property test of POST /v1/meters/usage_batches (issue 19, Proof): random sequences of batches (some
// with an Idempotency-Key), retries of earlier batches (with or without their header), two batches racing,
// closes and ticks, on three post-paid meters of one merchant, through the real server and Postgres. A
// model of which (meter, key) pairs are counted predicts every sequential answer record by record; for
// racing batches each new pair is accepted by exactly one of them. After every step each meter's
// usedBase equals the sum of the records the answers called accepted; at the end, with the tick run to
// quiescence, billed + accrued equals that sum to the base unit (an open meter), or the close settlement
// billed it rounded half up to the minor unit, the one rounding the service makes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";
import { tickUntilSettled } from "../helpers/meters";
import { createCustomer, tick } from "../helpers/payments";

const PER_MINOR = 1_000_000;
const METERS = 3;
const KEYS = 24;

type BatchSpec = { meter: number; key: number }[];
type Op =
  | { kind: "batch"; records: BatchSpec; header: boolean }
  | { kind: "retry"; which: number; sameHeader: boolean }
  | { kind: "race"; a: BatchSpec; b: BatchSpec; tick: boolean }
  | { kind: "close"; meter: number }
  | { kind: "tick" };

const specArb: fc.Arbitrary<BatchSpec> = fc.array(fc.record({ meter: fc.nat(METERS - 1), key: fc.nat(KEYS - 1) }), {
  minLength: 1,
  maxLength: 10,
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("batch" as const), records: specArb, header: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("retry" as const), which: fc.nat(20), sameHeader: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("race" as const), a: specArb, b: specArb, tick: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("close" as const), meter: fc.nat(METERS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("tick" as const) }) },
);

interface Result {
  idempotencyKey: string;
  meterId: string;
  status: "accepted" | "duplicate" | "refused";
  usageRecordId?: string;
  error?: { code: string };
}

describe("usage batches property", () => {
  it(
    "any sequence of batches, retries, races and closes: billed + accrued equals the sum of accepted records",
    { timeout: 300_000 },
    async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(opArb, { minLength: 3, maxLength: 14 }),
          fc.array(fc.integer({ min: 1, max: 2_500_000 }), { minLength: KEYS, maxLength: KEYS }),
          async (ops, prices) => {
            runs += 1;
            const m = await createTestMerchant("Batch property");
            const customerId = (await createCustomer(m.testKey)).id;
            const meterIds: string[] = [];
            for (let i = 0; i < METERS; i++) {
              const res = await call("POST", "/v1/meters", {
                key: m.testKey,
                body: { customerId, currency: "usd", thresholdMinor: 1 + i, prepaid: false, paymentMethod: "pm_card_visa" },
              });
              expect(res.status).toBe(201);
              meterIds.push(res.body.id);
            }
            // A key always carries the same usage, so a retried record is a duplicate, never a different record.
            const toRecords = (spec: BatchSpec) =>
              spec.map(({ meter, key }) => ({
                meterId: meterIds[meter],
                quantity: 1 + (key % 4),
                unitPriceMinor: prices[key],
                idempotencyKey: `k${key}`,
              }));
            const amountOf = (meter: number, key: number) => (1 + (key % 4)) * prices[key];

            const counted = new Map<string, string>(); // "<meter>:<key>" -> usageRecordId
            const closed = new Set<number>();
            const acceptedSum = Array<number>(METERS).fill(0);
            const sent: { spec: BatchSpec; header?: string; body: unknown }[] = [];
            let headers = 0;

            const send = (spec: BatchSpec, header?: string) =>
              call("POST", "/v1/meters/usage_batches", {
                key: m.testKey,
                body: { records: toRecords(spec) },
                headers: header ? { "Idempotency-Key": header } : undefined,
              });

            /** What the model says a sequential batch answers, record by record; then it takes the answer in. */
            const expectSequential = (spec: BatchSpec, results: Result[]) => {
              expect(results).toHaveLength(spec.length);
              spec.forEach(({ meter, key }, i) => {
                const r = results[i];
                const pair = `${meter}:${key}`;
                expect(r.meterId).toBe(meterIds[meter]);
                expect(r.idempotencyKey).toBe(`k${key}`);
                if (counted.has(pair)) {
                  expect(r).toMatchObject({ status: "duplicate", usageRecordId: counted.get(pair) });
                } else if (closed.has(meter)) {
                  expect(r).toMatchObject({ status: "refused", error: { code: "CONFLICT" } });
                } else {
                  expect(r.status).toBe("accepted");
                  counted.set(pair, r.usageRecordId!);
                  acceptedSum[meter] += amountOf(meter, key);
                }
              });
            };

            for (const op of ops) {
              if (op.kind === "batch") {
                const header = op.header ? `batch-${++headers}` : undefined;
                const res = await send(op.records, header);
                expect(res.status).toBe(200);
                expectSequential(op.records, res.body.results);
                sent.push({ spec: op.records, header, body: res.body });
              } else if (op.kind === "retry") {
                if (sent.length === 0) continue;
                const earlier = sent[op.which % sent.length];
                if (op.sameHeader && earlier.header) {
                  // The batch's own Idempotency-Key: its first answer, byte for byte, and nothing counted again.
                  const res = await send(earlier.spec, earlier.header);
                  expect(res.status).toBe(200);
                  expect(res.headers.get("idempotent-replayed")).toBe("true");
                  expect(res.body).toEqual(earlier.body);
                } else {
                  const res = await send(earlier.spec);
                  expect(res.status).toBe(200);
                  expectSequential(earlier.spec, res.body.results);
                }
              } else if (op.kind === "race") {
                const before = new Set(counted.keys());
                const [ra, rb] = await Promise.all([send(op.a), send(op.b), op.tick ? tick() : Promise.resolve()]);
                expect(ra.status).toBe(200);
                expect(rb.status).toBe(200);
                const acceptedBy = new Map<string, number>();
                for (const [spec, res] of [
                  [op.a, ra],
                  [op.b, rb],
                ] as const) {
                  spec.forEach(({ meter, key }, i) => {
                    const r: Result = res.body.results[i];
                    const pair = `${meter}:${key}`;
                    if (r.status === "accepted") {
                      expect(before.has(pair)).toBe(false);
                      acceptedBy.set(pair, (acceptedBy.get(pair) ?? 0) + 1);
                      counted.set(pair, r.usageRecordId!);
                      acceptedSum[meter] += amountOf(meter, key);
                    } else if (r.status === "refused") {
                      expect(r.error?.code).toBe("CONFLICT");
                      expect(closed.has(meter) && !before.has(pair)).toBe(true);
                    } else {
                      expect(r.status).toBe("duplicate");
                    }
                  });
                }
                // Every pair new to both batches on an open meter was accepted by exactly one of them.
                for (const { meter, key } of [...op.a, ...op.b]) {
                  const pair = `${meter}:${key}`;
                  if (!before.has(pair) && !closed.has(meter)) expect(acceptedBy.get(pair), pair).toBe(1);
                }
                // Both name the same record for each pair.
                for (const [spec, res] of [
                  [op.a, ra],
                  [op.b, rb],
                ] as const) {
                  spec.forEach(({ meter, key }, i) => {
                    const r: Result = res.body.results[i];
                    if (r.status !== "refused") expect(r.usageRecordId).toBe(counted.get(`${meter}:${key}`));
                  });
                }
              } else if (op.kind === "close") {
                const res = await call("POST", `/v1/meters/${meterIds[op.meter]}/close`, { key: m.testKey, body: {} });
                expect(res.status).toBe(closed.has(op.meter) ? 409 : 200);
                closed.add(op.meter);
              } else {
                expect((await tick()).status).toBe(200);
              }
              // After every step: each meter counted exactly what the answers accepted.
              for (let i = 0; i < METERS; i++) {
                const meter = (await call("GET", `/v1/meters/${meterIds[i]}`, { key: m.testKey })).body;
                expect(meter.usedBase).toBe(acceptedSum[i]);
              }
            }

            for (let i = 0; i < METERS; i++) {
              await tickUntilSettled(meterIds[i]);
              const meter = (await call("GET", `/v1/meters/${meterIds[i]}`, { key: m.testKey })).body;
              const sum = acceptedSum[i];
              expect(meter.usedBase).toBe(sum);
              if (closed.has(i)) {
                // The close settlement bills the rest rounded half up, so in all the sum rounded half up; a rest
                // that rounds to nothing stays accrued (below half a minor unit), else nothing is left.
                expect(meter.billedMinor).toBe(Math.floor((sum + PER_MINOR / 2) / PER_MINOR));
                if (meter.accruedBase !== 0) {
                  expect(meter.billedMinor * PER_MINOR + meter.accruedBase).toBe(sum);
                  expect(meter.accruedBase).toBeLessThan(PER_MINOR / 2);
                }
              } else {
                expect(meter.billedMinor * PER_MINOR + meter.accruedBase).toBe(sum);
                expect(meter.accruedBase).toBeLessThan(PER_MINOR * (1 + i)); // below its threshold once settled
              }
              const pis = (await call("GET", `/v1/payment_intents?meterId=${meterIds[i]}&limit=100`, { key: m.testKey })).body.data;
              expect(pis.reduce((total: number, p: { amountCaptured: number }) => total + p.amountCaptured, 0)).toBe(meter.billedMinor);
              expect(pis).toHaveLength(meter.settlementCount);
            }
          },
        ),
        { numRuns: 15 },
      );
      expect(runs).toBe(15);
    },
  );
});
