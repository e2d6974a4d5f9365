// Crash safety: the process dies between the rail charge and the commit (fault point after-rail-charge:exit).
// The retry with the same Idempotency-Key, on a fresh process once the claim's lock has expired, completes
// the capture from the rail's record of that charge, without charging again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, createCustomer, eventTypesFor, openCheckout, railChargesFor, sleep, tick } from "../helpers/payments";
import { startTestServer, waitForExit } from "../helpers/server";

const SETTINGS = { IDEMPOTENCY_LOCK_SECONDS: "1", FAULT_INJECTION: "1", SETTLEMENT_DELAY_SECONDS: "3600" };
const servers: ServerProcess[] = [];
let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Crash");
});
afterAll(() => Promise.all(servers.map((s) => s.stop())));

async function server(): Promise<ServerProcess> {
  const s = await startTestServer(SETTINGS);
  servers.push(s);
  return s;
}

describe("a capture that dies between the rail charge and the commit", () => {
  it("is completed by the retry with the same key, with exactly one rail charge", async () => {
    const [first, second] = await Promise.all([server(), server()]);
    const payer = await createCustomer(m.testKey, { amount: 1000, currency: "usd" }, first.url);
    const checkout = await openCheckout(m.testKey, { amount: 600 }, first.url);
    const key = `crash-${checkout.id}`;

    const died = await capture(m.testKey, checkout.id, payer.id, {
      base: first.url,
      headers: { "Idempotency-Key": key, "x-test-fault": "after-rail-charge:exit" },
    }).catch((err: Error) => err);
    expect(died).toBeInstanceOf(Error); // no response: the process exited
    expect(await waitForExit(first)).toBe(137);

    // The rail took the money; the service's transaction never committed.
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    const before = (await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey, base: second.url })).body;
    expect(before.status).toBe("requires_payment");

    // Same key while the dead claim is still locked: 409, retry shortly.
    const early = await capture(m.testKey, checkout.id, payer.id, { base: second.url, headers: { "Idempotency-Key": key } });
    expect([409, 200]).toContain(early.status);
    await sleep(1200);

    const retry = await capture(m.testKey, checkout.id, payer.id, { base: second.url, headers: { "Idempotency-Key": key } });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ object: "order", id: checkout.orderId, status: "paid", amount: 600 });
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    const wallet = await call("POST", `/v1/customers/${payer.id}/fund`, {
      key: m.testKey,
      base: second.url,
      body: { amount: 1, currency: "usd" },
    });
    expect(wallet.body.balances).toEqual([{ currency: "USD", amount: 401 }]); // 1000 - 600 once, + 1

    const replay = await capture(m.testKey, checkout.id, payer.id, { base: second.url, headers: { "Idempotency-Key": key } });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await eventTypesFor(m.testKey, checkout.orderId)).toEqual(["order.paid"]);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("a failure after the charge (no exit) is a 500 that releases the key; the next capture or cancel applies the charge", async () => {
    for (const next of ["capture", "cancel"] as const) {
      const checkout = await openCheckout(m.testKey, { amount: 250 });
      const failed = await capture(m.testKey, checkout.id, "pm_card_visa", {
        headers: { "Idempotency-Key": `fault-${checkout.id}`, "x-test-fault": "after-rail-charge" },
      });
      expect(failed.status).toBe(500);
      expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
      if (next === "capture") {
        const retry = await capture(m.testKey, checkout.id, "pm_card_visa", { headers: { "Idempotency-Key": `fault-${checkout.id}` } });
        expect(retry.status).toBe(200);
        expect(retry.body.status).toBe("paid");
      } else {
        const cancel = await call("POST", `/v1/checkouts/${checkout.id}/cancel`, { key: m.testKey });
        expect(cancel.status).toBe(409); // the money was taken: the checkout is paid, not canceled
        expect((await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey })).body.status).toBe("paid");
      }
      expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    }
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("a crashed charge is recovered by the expiry sweep too, never expired while the rail holds the money", async () => {
    const [first, second] = await Promise.all([server(), server()]);
    const checkout = await openCheckout(m.testKey, { amount: 300, expiresInSeconds: 2 }, first.url);
    await capture(m.testKey, checkout.id, "pm_card_visa", {
      base: first.url,
      headers: { "Idempotency-Key": `crash2-${checkout.id}`, "x-test-fault": "after-rail-charge:exit" },
    }).catch(() => null);
    await waitForExit(first);
    await sleep(2100);
    await tick(second.url);
    const order = (await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey, base: second.url })).body;
    expect(order.status).toBe("paid");
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });
});
