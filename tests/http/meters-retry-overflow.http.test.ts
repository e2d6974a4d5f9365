// Issue 14, item 11: retry-payment put the whole outstanding BIGINT into one 32-bit PaymentIntent amount.
// Outstanding sums every declined settlement since the last retry, each up to MAX_AMOUNT, so it can pass
// both MAX_AMOUNT and 2^31 - 1. Reproduced for real: the merchant's own test-rail circuit is open on one
// server (its ticks open settlements but cannot charge them), 22 settlements of MAX_AMOUNT pile up, then a
// second server (closed circuit) declines them all. Its own database: nothing else ticks it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_AMOUNT } from "../../lib/money/limits";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import type { TestMerchant } from "../helpers/merchants";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { openCheckout, capture, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

const SETTLEMENTS = 22; // 22 x 99,999,999 = 2,199,999,978 > 2,147,483,647
let own: OwnDatabase;
let holding: ServerProcess;
let charging: ServerProcess | undefined;
let m: TestMerchant;
let env: Record<string, string>;

beforeAll(async () => {
  own = await ownDatabase("retry");
  env = { DATABASE_URL: own.url, RATE_LIMIT_MAX: "10000" };
  // One server at a time (the second starts once the first has stopped): less load on a busy machine.
  [holding, m] = await Promise.all([
    startTestServer({ ...env, CIRCUIT_FAILURE_THRESHOLD: "1", CIRCUIT_COOLDOWN_MS: "600000" }),
    own.createMerchant("Declined settlements"),
  ]);
});
afterAll(async () => {
  await Promise.all([holding?.stop(), charging?.stop()]);
  await own?.drop();
});

const meterRow = (id: string) => own.db.meter.findUniqueOrThrow({ where: { id } });
const getMeter = async (id: string, base: string) => (await call("GET", `/v1/meters/${id}`, { key: m.testKey, base })).body;

describe("retry-payment of more than one PaymentIntent can carry", () => {
  it("splits the outstanding amount into PaymentIntents of at most MAX_AMOUNT, never a 500", async () => {
    const customer = (await call("POST", "/v1/customers", { key: m.testKey, base: holding.url, body: { name: "Agent" } })).body;
    // The merchant's own circuit on `holding` opens (threshold 1): its ticks cannot charge settlements.
    const checkout = await openCheckout(m.testKey, {}, holding.url);
    expect((await capture(m.testKey, checkout.id, "pm_rail_unavailable", { base: holding.url })).status).toBe(502);

    const created = await call("POST", "/v1/meters", {
      key: m.testKey,
      base: holding.url,
      body: {
        customerId: customer.id,
        currency: "usd",
        thresholdMinor: 1,
        prepaid: false,
        baseUnitsPerMinor: 1,
        paymentMethod: "pm_card_chargeDeclined",
      },
    });
    expect(created.status).toBe(201);
    const meterId = created.body.id;
    for (let i = 0; i < SETTLEMENTS; i++) {
      const usage = await call("POST", `/v1/meters/${meterId}/usage`, {
        key: m.testKey,
        base: holding.url,
        body: { quantity: 1, unitPriceMinor: MAX_AMOUNT, idempotencyKey: `u${i}` },
      });
      expect(usage.status, JSON.stringify(usage.body)).toBe(201);
      for (let t = 0; t < 20 && (await meterRow(meterId)).accruedBase !== 0n; t++) await tick(holding.url);
      expect((await meterRow(meterId)).settlementCount).toBe(i + 1);
    }
    const pending = await own.db.paymentIntent.count({ where: { meterId, status: "requires_payment" } });
    expect(pending).toBe(SETTLEMENTS);

    // Another instance's circuit is closed: every settlement is declined, and the outstanding amounts add up.
    await holding.stop();
    charging = await startTestServer(env);
    const outstanding = SETTLEMENTS * MAX_AMOUNT;
    for (let t = 0; t < 20 && (await meterRow(meterId)).outstandingMinor !== BigInt(outstanding); t++) await tick(charging.url);
    const pastDue = await getMeter(meterId, charging.url);
    expect(pastDue).toMatchObject({ status: "past_due", outstandingMinor: outstanding });
    expect(outstanding).toBeGreaterThan(2 ** 31 - 1);

    const retried = await call("POST", `/v1/meters/${meterId}/retry-payment`, {
      key: m.testKey,
      base: charging.url,
      body: { paymentMethod: "pm_card_visa" },
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ outstandingMinor: 0, billedMinor: outstanding, paymentMethod: "pm_card_visa" });
    const retries = await own.db.paymentIntent.findMany({
      where: { meterId, status: "requires_payment" },
      orderBy: { meterChargeKey: "asc" },
    });
    expect(retries.length).toBe(Math.ceil(outstanding / MAX_AMOUNT));
    expect(retries.every((pi) => pi.amount >= 1 && pi.amount <= MAX_AMOUNT)).toBe(true);
    expect(retries.reduce((sum, pi) => sum + pi.amount, 0)).toBe(outstanding);
    expect(new Set(retries.map((pi) => pi.meterChargeKey)).size).toBe(retries.length);

    // Collected: every part is captured and the meter takes usage again.
    for (let t = 0; t < 20 && (await meterRow(meterId)).status !== "open"; t++) await tick(charging.url);
    const collected = await own.db.paymentIntent.findMany({ where: { id: { in: retries.map((pi) => pi.id) } } });
    expect(collected.every((pi) => pi.status === "captured" || pi.status === "settled")).toBe(true);
    expect(await getMeter(meterId, charging.url)).toMatchObject({ status: "open", outstandingMinor: 0 });
    // Nothing outstanding any more: a second retry is 409, never a second bill.
    expect((await call("POST", `/v1/meters/${meterId}/retry-payment`, { key: m.testKey, base: charging.url, body: {} })).status).toBe(409);
  }, 300_000);
});
