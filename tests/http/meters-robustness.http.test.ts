// /v1/meters limits and robustness: no meter can accrue more than one PaymentIntent may carry, no BIGINT
// overflow surfaces as a 500, a meter whose settlement throws never holds up other merchants' meters, and
// retried usage records / reservations get their original object back even when the meter has since
// changed (budget used up, meter closed).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb, transaction } from "../../lib/db";
import { createApiKey } from "../../lib/merchants/create-api-key";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tickUntil } from "../helpers/meters";
import { createCustomer, tick } from "../helpers/payments";

const PRICE = 400_000; // 0.4 of a cent in base units
const MAX_PI_AMOUNT = 99_999_999; // the most one PaymentIntent carries (as a checkout)

let m: TestMerchant;
let customerId: string;
beforeEach(async () => {
  m = await createTestMerchant();
  customerId = (await createCustomer(m.testKey, { amount: 10_000, currency: "usd" })).id;
});

async function openMeter(body: Record<string, unknown> = {}, merchant = m, customer = customerId) {
  const res = await call("POST", "/v1/meters", {
    key: merchant.testKey,
    body: { customerId: customer, currency: "usd", thresholdMinor: 100, prepaid: false, ...body },
  });
  if (res.status !== 201) throw new Error(`open meter: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const usage = (meterId: string, body: Record<string, unknown>, key = m.testKey) =>
  call("POST", `/v1/meters/${meterId}/usage`, { key, body });
const reserve = (meterId: string, body: Record<string, unknown>, headers: Record<string, string> = {}, key = m.testKey) =>
  call("POST", `/v1/meters/${meterId}/reservations`, { key, body, headers });
const meterOf = async (id: string) => (await call("GET", `/v1/meters/${id}`, { key: m.testKey })).body;

describe("meters: the unbilled amount stays within one PaymentIntent", () => {
  it("refuses usage that would accrue more than 99,999,999 minor units unbilled (409 unbilled_limit); a single larger record is 400", async () => {
    const meter = await openMeter({ baseUnitsPerMinor: 1, thresholdMinor: MAX_PI_AMOUNT });
    expect((await usage(meter.id, { quantity: 1, unitPriceMinor: MAX_PI_AMOUNT, idempotencyKey: "a" })).status).toBe(201);
    const over = await usage(meter.id, { quantity: 1, unitPriceMinor: 1, idempotencyKey: "b" });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({
      code: "CONFLICT",
      details: { reason: "unbilled_limit", meterId: meter.id, limitBase: MAX_PI_AMOUNT, accruedBase: MAX_PI_AMOUNT },
    });

    const other = await openMeter({ baseUnitsPerMinor: 1 });
    const tooBig = await usage(other.id, { quantity: 2, unitPriceMinor: 50_000_000, idempotencyKey: "c" });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details.fields[0].path).toBe("quantity");
    expect(await meterOf(other.id)).toMatchObject({ accruedBase: 0, usedBase: 0 });
  });

  it("refuses a reservation whose hold plus the unbilled accrual would exceed one PaymentIntent", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: MAX_PI_AMOUNT, baseUnitsPerMinor: 1, paymentMethod: "pm_card_visa" });
    await getDb()
      .$executeRaw`UPDATE meters SET budget_base = 3 * ${MAX_PI_AMOUNT}::bigint, funded_minor = 3 * ${MAX_PI_AMOUNT}::bigint WHERE id = ${meter.id}`; // as if topped up twice more
    const held = await reserve(meter.id, { quantity: 1, unitPriceMinor: MAX_PI_AMOUNT - 10 });
    expect(held.status).toBe(201);
    const over = await reserve(meter.id, { quantity: 1, unitPriceMinor: 11 });
    expect(over.status).toBe(409);
    expect(over.body.error.details).toMatchObject({ reason: "unbilled_limit", reservedBase: MAX_PI_AMOUNT - 10 });
    expect((await reserve(meter.id, { quantity: 1, unitPriceMinor: 10 })).status).toBe(201);
  });

  it("a top-up that would pass the largest exact budget is refused (409) before anything is charged", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1, paymentMethod: "pm_card_visa" });
    await getDb().$executeRaw`UPDATE meters SET funded_minor = 9007199254, budget_base = 9007199254000000 WHERE id = ${meter.id}`;
    const res = await call("POST", `/v1/meters/${meter.id}/top-up`, { key: m.testKey, body: { amountMinor: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual({ reason: "meter_totals_limit", meterId: meter.id });
    expect(await getDb().paymentIntent.count({ where: { meterId: meter.id } })).toBe(1); // the first funding only
    const postPaid = await openMeter();
    expect((await call("POST", `/v1/meters/${postPaid.id}/top-up`, { key: m.testKey, body: { amountMinor: 1 } })).status).toBe(409);
  });

  it("concurrent top-ups near the largest exact budget: only those that fit together are charged", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1, paymentMethod: "pm_card_visa" });
    await getDb().$executeRaw`UPDATE meters SET funded_minor = 9007199244, budget_base = 9007199244000000 WHERE id = ${meter.id}`; // room for 10
    const topUps = await Promise.all(
      Array.from({ length: 5 }, () => call("POST", `/v1/meters/${meter.id}/top-up`, { key: m.testKey, body: { amountMinor: 4 } })),
    );
    expect(topUps.map((t) => t.status).sort()).toEqual([200, 200, 409, 409, 409]);
    expect((await meterOf(meter.id)).fundedMinor).toBe(9007199252);
  });

  it("a BIGINT total that would overflow is a 409, never a 500", async () => {
    const meter = await openMeter();
    await getDb().$executeRaw`UPDATE meters SET used_base = 9223372036854775000 WHERE id = ${meter.id}`;
    const res = await usage(meter.id, { quantity: 1000, unitPriceMinor: PRICE, idempotencyKey: "overflow" });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "CONFLICT", details: { reason: "meter_totals_limit", meterId: meter.id } });
  });
});

describe("meters: a failing settlement never holds up the others", () => {
  const POISONED = 201; // more than one batch of the sweep (200)
  afterEach(async () => {
    await getDb().$executeRaw`DELETE FROM meters WHERE id LIKE 'mtr_poisoned_%'`;
  });

  it("meters whose settlement throws are backed off, and another merchant's meter settles in the same tick", async () => {
    // Rows as an older build could leave them: accrued beyond what a PaymentIntent (a 32-bit amount) can hold.
    const template = await openMeter();
    await getDb().$executeRaw`
      INSERT INTO meters (id, merchant_id, livemode, customer_id, status, currency, prepaid, payment_method, threshold_minor,
                          base_units_per_minor, accrued_base, used_base, settle_due_at)
      SELECT 'mtr_poisoned_' || g, merchant_id, livemode, customer_id, status, currency, prepaid, payment_method, threshold_minor,
             base_units_per_minor, 3000000000::bigint * base_units_per_minor, 3000000000::bigint * base_units_per_minor, now() - interval '1 hour'
        FROM meters, generate_series(1, ${POISONED}) g WHERE id = ${template.id}`;

    const other = await createTestMerchant();
    const otherCustomer = (await createCustomer(other.testKey, { amount: 10_000, currency: "usd" })).id;
    const healthy = await openMeter({ thresholdMinor: 1 }, other, otherCustomer);
    expect((await usage(healthy.id, { quantity: 5, unitPriceMinor: PRICE, idempotencyKey: "h" }, other.testKey)).status).toBe(201);

    // Ticks of other test files may hold the healthy meter's lock for a moment (SKIP LOCKED), so allow a few.
    await tickUntil(async () => (await getDb().paymentIntent.count({ where: { meterId: healthy.id } })) === 1, undefined, 5);
    const stillDue = await getDb().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM meters WHERE id LIKE 'mtr_poisoned_%' AND settle_due_at <= now()`;
    expect(stillDue[0].n).toBe(0); // every poisoned meter was tried and moved into the future
    expect(await getDb().paymentIntent.count({ where: { meterId: { startsWith: "mtr_poisoned_" } } })).toBe(0);
  });
});

describe("meters: retries answer the original object even after the meter changed", () => {
  it("a retried reserve that used up the budget gets its reservation back (200), not 402", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 }); // 1,000,000 base units
    const first = await reserve(meter.id, { quantity: 1, unitPriceMinor: 1_000_000, idempotencyKey: "K" });
    expect(first.status).toBe(201);
    const retry = await reserve(meter.id, { quantity: 1, unitPriceMinor: 1_000_000, idempotencyKey: "K" });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ ...first.body, created: false }); // another request (no header): not its hold
    const mismatch = await reserve(meter.id, { quantity: 2, unitPriceMinor: 1_000_000, idempotencyKey: "K" });
    expect(mismatch.status).toBe(400);
    expect((await reserve(meter.id, { quantity: 1, unitPriceMinor: 1, idempotencyKey: "K2" })).status).toBe(402);
  });

  it("a usage record retried after close gets its record back (200), not 409", async () => {
    const meter = await openMeter();
    const first = await usage(meter.id, { quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(first.status).toBe(201);
    expect((await call("POST", `/v1/meters/${meter.id}/close`, { key: m.testKey, body: {} })).status).toBe(200);
    const retry = await usage(meter.id, { quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await usage(meter.id, { quantity: 4, unitPriceMinor: PRICE, idempotencyKey: "call-1" })).status).toBe(400);
    expect((await usage(meter.id, { quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "call-2" })).status).toBe(409);
  });
});

describe("meters: the Idempotency-Key fallback is scoped per API key", () => {
  it("two API keys of one merchant sending the same Idempotency-Key get two holds; each retry gets its own", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 });
    const second = await transaction((tx) => createApiKey(tx, m.merchantId, false, "second"));
    const body = { quantity: 1, unitPriceMinor: PRICE };
    const a = await reserve(meter.id, body, { "Idempotency-Key": "same-header" });
    const b = await reserve(meter.id, body, { "Idempotency-Key": "same-header" }, second.secret);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).not.toBe(a.body.id);
    expect(a.body.idempotencyKey).toBeNull(); // the stored key is a digest of the API key and the header
    const retryA = await reserve(meter.id, body, { "Idempotency-Key": "same-header" });
    const retryB = await reserve(meter.id, body, { "Idempotency-Key": "same-header" }, second.secret);
    expect([retryA.status, retryA.body.id, retryB.status, retryB.body.id]).toEqual([201, a.body.id, 201, b.body.id]); // each its own request's retry
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: 2 * PRICE });
  });
});

describe("meters: nothing is billed after close", () => {
  it("a reservation left held on a closed meter (a reserve that raced close) cannot be committed; release frees it", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 });
    expect((await call("POST", `/v1/meters/${meter.id}/close`, { key: m.testKey, body: {} })).status).toBe(200);
    // What a reserve that locked the meter and inserted its hold while close ran leaves behind.
    await getDb().$executeRaw`
      WITH upd AS (UPDATE meters SET reserved_base = reserved_base + ${PRICE}::bigint WHERE id = ${meter.id} RETURNING id)
      INSERT INTO meter_reservations (id, meter_id, status, quantity, unit_price_base, amount_base, expires_at)
      SELECT 'mres_racedclose' || substr(md5(random()::text), 1, 10), id, 'held', 1, ${PRICE}, ${PRICE}, now() + interval '5 minutes' FROM upd`;
    const [held] = await getDb().$queryRaw<{ id: string }[]>`SELECT id FROM meter_reservations WHERE meter_id = ${meter.id}`;

    const commit = await call("POST", `/v1/meters/${meter.id}/reservations/${held.id}/commit`, { key: m.testKey, body: {} });
    expect(commit.status).toBe(409);
    expect(commit.body.error.details).toMatchObject({ status: "held", meterStatus: "closed" });
    expect(await meterOf(meter.id)).toMatchObject({ accruedBase: 0, usedBase: 0, reservedBase: PRICE });
    const release = await call("POST", `/v1/meters/${meter.id}/reservations/${held.id}/release`, { key: m.testKey, body: {} });
    expect(release.status).toBe(200);
    expect(await meterOf(meter.id)).toMatchObject({ accruedBase: 0, usedBase: 0, reservedBase: 0, status: "closed" });
  });
});

describe("meters: a declined aggregate charge is collected by retry-payment", () => {
  it("declined minor units are outstanding, usage is refused while past due, retry-payment bills them once and reopens the meter", async () => {
    const meter = await openMeter({ thresholdMinor: 1, paymentMethod: "pm_card_chargeDeclined" });
    expect((await usage(meter.id, { quantity: 5, unitPriceMinor: PRICE, idempotencyKey: "u1" })).status).toBe(201);
    await tickUntil(async () => (await meterOf(meter.id)).status === "past_due");
    expect(await meterOf(meter.id)).toMatchObject({ status: "past_due", billedMinor: 0, outstandingMinor: 2, accruedBase: 0 });

    const refused = await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "u2" });
    expect(refused.status).toBe(402);
    expect(refused.body.error.details).toMatchObject({ reason: "meter_past_due", meterId: meter.id });
    // A retry of usage recorded before the decline is still its original record.
    expect((await usage(meter.id, { quantity: 5, unitPriceMinor: PRICE, idempotencyKey: "u1" })).status).toBe(200);

    const retry = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      call("POST", `/v1/meters/${meter.id}/retry-payment`, { key: m.testKey, body, headers });
    expect((await retry({ paymentMethod: "pm_nope" })).status).toBe(400);
    const first = await retry({ paymentMethod: "pm_card_visa" }, { "Idempotency-Key": "collect-1" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ paymentMethod: "pm_card_visa", billedMinor: 2, outstandingMinor: 0 });
    const replay = await retry({ paymentMethod: "pm_card_visa" }, { "Idempotency-Key": "collect-1" });
    expect(replay.body).toEqual(first.body);
    const nothingLeft = await retry({});
    expect(nothingLeft.status).toBe(409);

    await tickUntil(async () => (await meterOf(meter.id)).status === "open");
    const pis = (await call("GET", `/v1/payment_intents?meterId=${meter.id}&limit=100`, { key: m.testKey })).body.data;
    const states = pis
      .map((p: { amount: number; status: string }) => `${p.amount}:${p.status === "settled" ? "captured" : p.status}`)
      .sort();
    expect(states).toEqual(["2:captured", "2:failed"]);
    expect(await meterOf(meter.id)).toMatchObject({ status: "open", billedMinor: 2, outstandingMinor: 0 });
    expect((await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "u3" })).status).toBe(201);
    const otherMerchant = await createTestMerchant();
    expect((await call("POST", `/v1/meters/${meter.id}/retry-payment`, { key: otherMerchant.testKey, body: {} })).status).toBe(404);
  });
});

describe("meters: expiry locks meters in id order", () => {
  it("a tick expiring reservations of two meters takes the lower id's lock first, so it never holds the higher one while waiting", async () => {
    // The meter stored first has the HIGHER id, so an order-less UPDATE (physical order) would lock it first.
    let low = "";
    let high = "";
    for (let i = 0; i < 20 && !low; i++) {
      const first = await openMeter({ prepaid: true, budgetMinor: 1 });
      const second = await openMeter({ prepaid: true, budgetMinor: 1 });
      const [ordered] = await getDb().$queryRaw<{ higher_first: boolean }[]>`SELECT ${first.id}::text > ${second.id}::text AS higher_first`;
      if (ordered.higher_first) [high, low] = [first.id, second.id];
    }
    for (const id of [high, low]) expect((await reserve(id, { quantity: 1, unitPriceMinor: PRICE })).status).toBe(201);
    await getDb().$executeRaw`UPDATE meter_reservations SET expires_at = now() - interval '1 second' WHERE meter_id IN (${low}, ${high})`;

    let ticking: Promise<unknown> = Promise.resolve();
    await getDb().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM meters WHERE id = ${low} FOR UPDATE`;
        ticking = tick(); // its expiry claims both reservations, then waits for the lower meter
        await waitUntil(async () => {
          const [w] = await tx.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
          return w.n > 0;
        });
        // Locked in id order, the tick holds nothing of the higher meter yet: it is free at once. (Locked
        // the other way round, this would wait until Postgres broke the deadlock.)
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '500ms'`);
        await tx.$queryRaw`SELECT id FROM meters WHERE id = ${high} FOR UPDATE`;
      },
      { timeout: 20_000 },
    );
    await ticking;
    await tickUntil(async () => (await meterOf(low)).reservedBase === 0 && (await meterOf(high)).reservedBase === 0);
  });
});

async function waitUntil(done: () => Promise<boolean>, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("never reached the expected state");
}
