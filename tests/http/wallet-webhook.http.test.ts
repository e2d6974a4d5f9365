// docs/webhooks.md "Inbound wallet-provider webhook": signed with WALLET_WEBHOOK_SECRET, never rate limited,
// applied once per provider event id; a refund event refunds the PaymentIntent it names.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateTestHeader } from "agent-payments-sdk";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, openCheckout } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

const SECRET = "whsec_wallet_test_secret";
let server: ServerProcess;
let m: TestMerchant;

beforeAll(async () => {
  server = await startTestServer({ WALLET_WEBHOOK_SECRET: SECRET, RATE_LIMIT_MAX: "20", RATE_LIMIT_WINDOW_MS: "3600000" });
  m = await createTestMerchant();
});
afterAll(() => server.stop());

function send(event: unknown, secret = SECRET) {
  const rawBody = JSON.stringify(event);
  return call("POST", "/v1/integrations/wallet/webhook", {
    base: server.url,
    rawBody,
    headers: { "content-type": "application/json", "x-service-signature": generateTestHeader({ payload: rawBody, secret }) },
  });
}

async function capturedPaymentIntent(amount: number): Promise<string> {
  const checkout = await openCheckout(m.testKey, { amount }, server.url);
  expect((await capture(m.testKey, checkout.id, "pm_card_visa", { base: server.url })).status).toBe(200);
  return checkout.paymentIntentId;
}

const getPi = async (id: string) => (await call("GET", `/v1/payment_intents/${id}`, { key: m.testKey, base: server.url })).body;

describe("inbound wallet webhook", () => {
  it("a refund event refunds the PaymentIntent once, however often it is delivered", async () => {
    const pi = await capturedPaymentIntent(1000);
    const event = { id: `wevt_${randomUUID()}`, type: "refund.succeeded", data: { paymentIntentId: pi, amount: 400 } };
    const results = await Promise.all(Array.from({ length: 8 }, () => send(event)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const applied = results.filter((r) => r.body.refundId);
    expect(applied).toHaveLength(1);
    expect(results.filter((r) => r.body.duplicate)).toHaveLength(7);
    expect(await getPi(pi)).toMatchObject({ amountRefunded: 400 });

    const again = await send(event);
    expect(again.body).toEqual({ received: true, duplicate: true });
    const refunds = await call("GET", `/v1/refunds?paymentIntentId=${pi}`, { key: m.testKey, base: server.url });
    expect(refunds.body.data).toHaveLength(1);
    expect(refunds.body.data[0]).toMatchObject({ amount: 400, reason: "requested_by_wallet_provider" });
    const events = await call("GET", "/v1/events?type=payment_intent.refunded", { key: m.testKey, base: server.url });
    expect(events.body.data.some((e: any) => e.data.object.id === pi)).toBe(true);
  });

  it("a full refund by default; an over-refund is acknowledged as rejected and refunds nothing", async () => {
    const pi = await capturedPaymentIntent(700);
    const over = { id: `wevt_${randomUUID()}`, type: "refund.succeeded", data: { paymentIntentId: pi, amount: 800 } };
    const rejected = await send(over);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ received: true, rejected: { code: "VALIDATION_ERROR", message: expect.stringMatching(/exceeds/) } });
    expect((await send(over)).body).toEqual({ received: true, duplicate: true });
    expect(await getPi(pi)).toMatchObject({ amountRefunded: 0 });
    const full = await send({ id: `wevt_${randomUUID()}`, type: "refund.succeeded", data: { paymentIntentId: pi } });
    expect(full.status).toBe(200);
    expect(await getPi(pi)).toMatchObject({ status: "refunded", amountRefunded: 700 });
  });

  it("refuses bad signatures (401) and malformed events (400); rejects unknown PaymentIntents; ignores other types", async () => {
    const pi = await capturedPaymentIntent(300);
    const forged = await send({ id: `wevt_${randomUUID()}`, type: "refund.succeeded", data: { paymentIntentId: pi } }, "whsec_forged");
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("UNAUTHORIZED");
    const unsigned = await call("POST", "/v1/integrations/wallet/webhook", {
      base: server.url,
      body: { id: "x", type: "refund.succeeded" },
    });
    expect(unsigned.status).toBe(401);
    const unknown = await send({ id: `wevt_${randomUUID()}`, type: "refund.succeeded", data: { paymentIntentId: "pi_nope" } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.rejected.code).toBe("NOT_FOUND");
    expect((await send({ id: `wevt_${randomUUID()}`, type: "refund.succeeded", data: {} })).status).toBe(400);
    expect((await send({ type: "refund.succeeded" })).status).toBe(400);
    expect((await send({ id: `wevt_${randomUUID()}`, type: "wallet.topped_up", data: {} })).body).toEqual({
      received: true,
      ignored: true,
    });
    expect(await getPi(pi)).toMatchObject({ amountRefunded: 0 });
  });

  it("is never rate limited", async () => {
    // This server allows 20 requests per hour per principal or IP; the wallet webhook ignores that.
    const results = await Promise.all(Array.from({ length: 30 }, () => send({ id: `wevt_${randomUUID()}`, type: "noise", data: {} })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results[0].headers.get("ratelimit-limit")).toBeNull();
  });
});
