// ACP 3-D Secure in test mode (docs/acp.md "3-D Secure"), against a real server and database: a session paid with
// the 3DS test card (4000002760003184) is marked authentication_required (with authentication_metadata) and nothing
// is charged; completing again without authentication_result is 400 requires_3ds at $.authentication_result; a
// failed outcome or a malformed result is refused with nothing charged; a valid authentication_result charges
// once. At 2026-01-16 (validated by the helper's zod schemas and ACP's published JSON Schema) and at 2026-04-17
// (ACP's published JSON Schema). Outside ACP the rail declines the card `authentication_required`.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { acpCall } from "../helpers/acp";
import { createProduct, delegateCard, expectValid } from "../helpers/acp-edges";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { railChargesFor } from "../helpers/payments";

const THREE_DS_CARD = "4000002760003184";

const AUTHENTICATED = {
  outcome: "authenticated",
  outcome_details: {
    // 20 bytes, base64 (ACP's own example value is one character short of that).
    three_ds_cryptogram: Buffer.alloc(20, 0x5a).toString("base64"),
    electronic_commerce_indicator: "05",
    transaction_id: "dsTransId_abc123",
    version: "2.2.0",
  },
};

let m: TestMerchant;

beforeAll(async () => {
  m = await createTestMerchant("ACP 3DS shop");
});

async function paymentIntents(): Promise<any[]> {
  const res = await call("GET", "/v1/payment_intents?limit=100", { key: m.testKey });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe("ACP 3-D Secure (2026-01-16)", () => {
  it("authentication_required without authentication_result, nothing charged; a valid result charges once", async () => {
    const productId = await createProduct(m.testKey, 1500);
    const session = (await acpCall("POST", "/acp/checkout_sessions", { key: m.testKey, body: { items: [{ id: productId, quantity: 2 }] } }))
      .body;
    expect(session.status).toBe("ready_for_payment");
    const token = await delegateCard(m.testKey, m.merchantId, session.id, THREE_DS_CARD, 3000);
    const before = (await paymentIntents()).length;
    const complete = (body: unknown) => acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, { key: m.testKey, body });
    const payment_data = { token, provider: "service" };

    // 1. The card demands authentication: the session says so, with what the agent authenticates with.
    const first = await complete({ payment_data });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.status).toBe("authentication_required");
    expect(first.body.order).toBeUndefined();
    expect(first.body.authentication_metadata).toMatchObject({ directory_server: "visa", acquirer_details: { acquirer_country: "US" } });
    expectValid("agentic_checkout", "2026-01-16", "CheckoutSession", first.body);
    const read = await acpCall("GET", `/acp/checkout_sessions/${session.id}`, { key: m.testKey });
    expect(read.body.status).toBe("authentication_required");
    expect((await paymentIntents()).length).toBe(before);

    // 2. Again without the result: refused as the RFC says.
    const again = await complete({ payment_data });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ type: "invalid_request", code: "requires_3ds", param: "$.authentication_result" });
    expectValid("agentic_checkout", "2026-01-16", "Error", again.body);

    // 3. A failed outcome declines; a result that does not fit the directory server is invalid. Nothing charged.
    const rejected = await complete({ payment_data, authentication_result: { outcome: "rejected" } });
    expect(rejected.status).toBe(402);
    expect(rejected.body).toMatchObject({ type: "processing_error", code: "payment_declined", param: "$.authentication_result.outcome" });
    const wrongEci = await complete({
      payment_data,
      authentication_result: {
        ...AUTHENTICATED,
        outcome_details: { ...AUTHENTICATED.outcome_details, electronic_commerce_indicator: "02" },
      },
    });
    expect(wrongEci.status).toBe(400);
    expect(wrongEci.body.param).toBe("$.authentication_result.outcome_details.electronic_commerce_indicator");
    const noDetails = await complete({ payment_data, authentication_result: { outcome: "authenticated" } });
    expect(noDetails.status).toBe(400);
    expect((await paymentIntents()).length).toBe(before);
    expect((await acpCall("GET", `/acp/checkout_sessions/${session.id}`, { key: m.testKey })).body.status).toBe("authentication_required");

    // 4. Authenticated: charged once, the session completed with its order.
    const done = await complete({ payment_data, authentication_result: AUTHENTICATED });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe("completed");
    expect(done.body.authentication_metadata).toBeUndefined();
    const intents = await paymentIntents();
    expect(intents.length).toBe(before + 1);
    const pi = (await call("GET", `/v1/orders/${done.body.order.id}`, { key: m.testKey })).body.paymentIntentId;
    const charged = (await call("GET", `/v1/payment_intents/${pi}`, { key: m.testKey })).body;
    expect(charged).toMatchObject({ amount: 3000, amountCaptured: 3000 });
    expect(await railChargesFor(pi)).toBe(1);

    // A completed session is not paid twice.
    const twice = await complete({ payment_data, authentication_result: AUTHENTICATED });
    expect(twice.status).toBe(409);
    expect(await railChargesFor(pi)).toBe(1);
  });

  it("a card without 3-D Secure completes at once, authentication_result or not", async () => {
    const productId = await createProduct(m.testKey, 700);
    const session = (await acpCall("POST", "/acp/checkout_sessions", { key: m.testKey, body: { items: [{ id: productId, quantity: 1 }] } }))
      .body;
    const token = await delegateCard(m.testKey, m.merchantId, session.id, "4242424242424242", 700);
    const done = await acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      key: m.testKey,
      body: { payment_data: { token, provider: "service" } },
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("completed");
  });

  it("outside ACP (no 3-D Secure there) the rail declines the card authentication_required", async () => {
    const checkout = await call("POST", "/v1/checkouts", { key: m.testKey, body: { amount: 900, currency: "usd" } });
    const capture = await call("POST", `/v1/checkouts/${checkout.body.id}/capture`, {
      key: m.testKey,
      body: { paymentMethod: "pm_card_authenticationRequired" },
    });
    expect(capture.status).toBe(402);
    expect(capture.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "authentication_required" } });
  });
});

describe("ACP 3-D Secure (2026-04-17)", () => {
  const VERSION = "2026-04-17";
  const acp = (method: string, path: string, body?: unknown) =>
    call(method, path, {
      key: m.testKey,
      body,
      headers: { "API-Version": VERSION, ...(method === "POST" ? { "Idempotency-Key": randomUUID() } : {}) },
    });

  it("the same flow, every answer valid against ACP's 2026-04-17 schema", async () => {
    const productId = await createProduct(m.testKey, 1200);
    const created = await acp("POST", "/acp/checkout_sessions", {
      line_items: [{ id: productId, quantity: 1 }],
      currency: "usd",
      capabilities: { payment: { handlers: [{ id: "shared_payment_token" }] }, interventions: { supported: ["3ds"] } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectValid("agentic_checkout", VERSION, "CheckoutSession", created.body);
    const token = await delegateCard(m.testKey, m.merchantId, created.body.id, THREE_DS_CARD, 1200);
    const payment_data = { handler_id: "shared_payment_token", instrument: { type: "card", credential: { type: "spt", token } } };
    const path = `/acp/checkout_sessions/${created.body.id}/complete`;

    const first = await acp("POST", path, { payment_data });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.status).toBe("authentication_required");
    expectValid("agentic_checkout", VERSION, "CheckoutSession", first.body);

    const again = await acp("POST", path, { payment_data });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "requires_3ds", param: "$.authentication_result" });
    expectValid("agentic_checkout", VERSION, "Error", again.body);

    const done = await acp("POST", path, { payment_data, authentication_result: AUTHENTICATED });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe("completed");
    expectValid("agentic_checkout", VERSION, "CheckoutSessionWithOrder", done.body);
    const pi = (await call("GET", `/v1/orders/${done.body.order.id}`, { key: m.testKey })).body.paymentIntentId;
    expect(await railChargesFor(pi)).toBe(1);
  });
});
