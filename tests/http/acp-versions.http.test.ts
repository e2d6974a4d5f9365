// ACP at API-Version 2026-04-17, 2026-01-30 and 2026-01-16 (docs/acp.md "Versions"), over HTTP against the running
// server. Every answer is validated with ajv against the published JSON schema of the version asked
// (tests/fixtures/acp/, vendored from the protocol repository). Proves, per version: create -> update (shipping
// chosen, discount applied) -> complete with the shared payment token handler (an spt_ from delegate_payment) ->
// completed with its order, the amount charged being the quote's total (items - discount + shipping + tax) through
// the ordinary ledger; capability negotiation (the intersection); the statuses incomplete, not_ready_for_payment,
// ready_for_payment, complete_in_progress, expired, canceled, completed; bad input -> the version's Error, 4xx.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { holdCompletionLock } from "../../lib/acp/session-status";
import { getDb } from "../../lib/db";
import { acpSchema, expectValid } from "../helpers/acp-edges";
import { call, type ApiResponse } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const CURRENT = ["2026-04-17", "2026-01-30"] as const;
type Version = (typeof CURRENT)[number] | "2026-01-16";

let m: TestMerchant;
let ebook: string;
let mug: string;

const AGENT_CAPABILITIES = {
  payment: { handlers: [{ id: "card", name: "dev.acp.tokenized.card" }] },
  interventions: { supported: ["3ds", "biometric"], display_context: "webview" },
  extensions: ["discount", "com.example.loyalty"],
};

async function product(body: Record<string, unknown>): Promise<string> {
  const res = await call("POST", "/v1/products", { key: m.testKey, body: { currency: "usd", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  m = await createTestMerchant("ACP versions shop");
  ebook = await product({ name: "E-book", unitAmount: 1000 });
  mug = await product({ name: "Mug", unitAmount: 2000, requiresShipping: true });
  // The merchant's ACP pricing settings, set through its API (tests/http/acp-settings.http.test.ts covers the API).
  await setting("/v1/acp/commerce_settings", { shippingRate: 500, taxRates: { US: 825 } });
  await setting("/v1/acp/discount_codes", { code: "SAVE10", name: "10% off", percentOff: 10 });
  await setting("/v1/acp/discount_codes", { code: "FIVE", name: "$5 off", amountOff: 500, currency: "usd" });
});

async function setting(path: string, body: unknown) {
  const res = await call("POST", path, { key: m.testKey, body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

/** An /acp call at `version`, its answer validated against that version's published schema. */
async function acp(version: Version, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const headers: Record<string, string> = { "API-Version": version };
  if (method === "POST") headers["Idempotency-Key"] = randomUUID();
  const res = await call(method, path, { key: m.testKey, body, headers });
  expect(res.status, `${method} ${path}: never a 500 (${JSON.stringify(res.body)})`).toBeLessThan(500);
  const delegate = path.includes("delegate_payment");
  const file = delegate ? "delegate_payment" : "agentic_checkout";
  if (res.status >= 400) expectValid(file, version, "Error", res.body);
  else if (delegate) expectValid(file, version, "DelegatePaymentResponse", res.body);
  else if (res.body.status === "completed") expectValid(file, version, "CheckoutSessionWithOrder", withoutLegacyReceipt(version, res.body));
  else expectValid(file, version, "CheckoutSession", res.body);
  return res;
}

/** 2026-01-16's order carries the service's receipt beside ACP's closed Order (docs/acp.md, "Receipts"). */
function withoutLegacyReceipt(version: Version, body: { order?: Record<string, unknown> }) {
  if (version !== "2026-01-16" || !body.order) return body;
  const { serviceReceipt, ...order } = body.order;
  expect(typeof serviceReceipt).toBe("string");
  return { ...body, order };
}

async function delegateToken(version: Version, sessionId: string, maxAmount: number, number = "4242424242424242"): Promise<string> {
  const res = await acp(version, "POST", "/acp/agentic_commerce/delegate_payment", {
    payment_method: {
      type: "card",
      card_number_type: "fpan",
      number,
      exp_month: "11",
      exp_year: "2030",
      display_card_funding_type: "credit",
      display_brand: "visa",
      display_last4: number.slice(-4),
      metadata: {},
    },
    allowance: {
      reason: "one_time",
      max_amount: maxAmount,
      currency: "usd",
      checkout_session_id: sessionId,
      merchant_id: m.merchantId,
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    },
    risk_signals: [{ type: "card_testing", score: 1, action: "authorized" }],
    metadata: {},
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return `spt_${(res.body.id as string).replace(/^(vt|spt)_/, "")}`;
}

const ADDRESS = { name: "Ada Buyer", line_one: "1 Main St", city: "Springfield", state: "IL", country: "US", postal_code: "62701" };
const paymentCount = () => getDb().paymentIntent.count({ where: { merchantId: m.merchantId } });
const totalOf = (body: { totals: { type: string; amount: number }[] }, type: string) => body.totals.find((t) => t.type === type)?.amount;

describe.each(CURRENT)("ACP %s", (version) => {
  it("create -> update (shipping chosen, discount applied) -> complete with the spt handler; the quote's total is charged", async () => {
    const created = await acp(version, "POST", "/acp/checkout_sessions", {
      line_items: [{ id: ebook }, { id: mug, quantity: 2 }],
      currency: "usd",
      capabilities: AGENT_CAPABILITIES,
    });
    expect(created.status).toBe(201);
    const session = created.body;
    expect(session.protocol).toEqual({ version });
    // Capability negotiation: our one handler, interventions intersected (3ds only), the discount extension active.
    expect(session.capabilities.payment.handlers.map((h: { id: string }) => h.id)).toEqual(["shared_payment_token"]);
    expect(session.capabilities.interventions.supported).toEqual(["3ds"]);
    expect(session.capabilities.extensions.map((e: { name: string }) => e.name)).toEqual(["discount"]);
    // The mug ships and nothing says where: incomplete, with what is missing.
    expect(session.status).toBe("incomplete");
    expect(session.messages).toContainEqual(
      expect.objectContaining({ type: "error", code: "missing", param: "$.fulfillment_details.address" }),
    );
    expect(session.fulfillment_options.map((o: { id: string }) => o.id)).toEqual(["digital", "shipping_standard"]);
    expect(session.fulfillment_groups).toEqual([
      { id: "fg_digital", item_ids: ["li_1"], destination_type: "digital" },
      { id: "fg_shipping", item_ids: ["li_2"], destination_type: "shipping" },
    ]);

    const addressed = await acp(version, "POST", `/acp/checkout_sessions/${session.id}`, {
      fulfillment_details: { name: "Ada", address: ADDRESS },
    });
    expect(addressed.body.status).toBe("incomplete");
    expect(addressed.body.messages).toContainEqual(expect.objectContaining({ code: "missing", param: "$.selected_fulfillment_options" }));

    const updated = await acp(version, "POST", `/acp/checkout_sessions/${session.id}`, {
      selected_fulfillment_options: [
        { type: "shipping", option_id: "shipping_standard", item_ids: ["li_2"] },
        { type: "digital", option_id: "digital", item_ids: ["li_1"] },
      ],
      discounts: { codes: ["SAVE10", "NOPE", "FIVE"] },
    });
    const ready = updated.body;
    expect(ready.status).toBe("ready_for_payment");
    // 1000 + 2 x 2000 = 5000; 10% off = 500; tax 8.25% of 4500 = 371 (74 + 297 per line); shipping 500.
    expect(totalOf(ready, "items_base_amount")).toBe(5000);
    expect(totalOf(ready, "discount")).toBe(500);
    expect(totalOf(ready, "fulfillment")).toBe(500);
    expect(totalOf(ready, "tax")).toBe(371);
    expect(totalOf(ready, "total")).toBe(5371);
    expect(ready.discounts.applied).toEqual([expect.objectContaining({ code: "SAVE10", amount: 500 })]);
    expect(ready.discounts.rejected).toEqual([
      { code: "NOPE", reason: "discount_code_invalid" },
      { code: "FIVE", reason: "discount_code_combination_disallowed" },
    ]);
    expect(ready.messages).toContainEqual(
      expect.objectContaining({ type: "warning", code: "discount_code_invalid", param: "$.discounts.codes[1]" }),
    );
    expect(ready.selected_fulfillment_options).toContainEqual({ type: "shipping", option_id: "shipping_standard", item_ids: ["li_2"] });

    const token = await delegateToken(version, session.id, 6000);
    const completed = await acp(version, "POST", `/acp/checkout_sessions/${session.id}/complete`, {
      buyer: { email: "ada@example.com", first_name: "Ada" },
      payment_data: { handler_id: "shared_payment_token", instrument: { type: "card", credential: { type: "spt", token } } },
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.status).toBe("completed");
    expect(totalOf(completed.body, "total")).toBe(5371);
    const orderId = completed.body.order.id as string;
    const order = await getDb().order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.amount).toBe(5371);
    const payment = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: order.paymentIntentId } });
    expect(payment.source).toBe("acp");

    // Read back later, the completed session shows the quote it charged.
    const read = await acp(version, "GET", `/acp/checkout_sessions/${session.id}`);
    expect(read.body.status).toBe("completed");
    expect(totalOf(read.body, "total")).toBe(5371);
  });

  it("refuses what the version does not allow, as its Error (4xx), charging nothing", async () => {
    const paymentsBefore = await paymentCount();
    const legacyBody = await acp(version, "POST", "/acp/checkout_sessions", { items: [{ id: ebook, quantity: 1 }] });
    expect(legacyBody.status).toBe(400);
    const noCapabilities = await acp(version, "POST", "/acp/checkout_sessions", { line_items: [{ id: ebook }], currency: "usd" });
    expect(noCapabilities.status).toBe(400);
    expect(noCapabilities.body.param).toBe("$.capabilities");
    const wrongCurrency = await acp(version, "POST", "/acp/checkout_sessions", {
      line_items: [{ id: ebook }],
      currency: "eur",
      capabilities: {},
    });
    expect(wrongCurrency.body).toMatchObject({ type: "invalid_request", param: "$.currency" });
    const undeclared = await acp(version, "POST", "/acp/checkout_sessions", {
      line_items: [{ id: ebook }],
      currency: "usd",
      capabilities: {},
      discounts: { codes: ["SAVE10"] },
    });
    expect(undeclared.body).toMatchObject({ type: "invalid_request", param: "$.discounts" });

    const session = (
      await acp(version, "POST", "/acp/checkout_sessions", { line_items: [{ id: ebook }], currency: "usd", capabilities: {} })
    ).body;
    expect(session.status).toBe("ready_for_payment");
    const unoffered = await acp(version, "POST", `/acp/checkout_sessions/${session.id}`, {
      selected_fulfillment_options: [{ type: "shipping", option_id: "shipping_standard", item_ids: ["li_1"] }],
    });
    expect(unoffered.body).toMatchObject({ type: "invalid_request", param: "$.selected_fulfillment_options[0].option_id" });
    const token = await delegateToken(version, session.id, 2000);
    const otherHandler = await acp(version, "POST", `/acp/checkout_sessions/${session.id}/complete`, {
      payment_data: { handler_id: "card_tokenized", instrument: { type: "card", credential: { type: "spt", token } } },
    });
    expect(otherHandler.body).toMatchObject({ type: "invalid_request", param: "$.payment_data.handler_id" });
    const legacyPayment = await acp(version, "POST", `/acp/checkout_sessions/${session.id}/complete`, {
      payment_data: { token, provider: "stripe" },
    });
    expect(legacyPayment.status).toBe(400);
    const notAToken = await acp(version, "POST", `/acp/checkout_sessions/${session.id}/complete`, {
      payment_data: { handler_id: "shared_payment_token", instrument: { type: "card", credential: { type: "spt", token: "tok_123" } } },
    });
    expect(notAToken.body).toMatchObject({ type: "invalid_request", param: "$.payment_data.instrument.credential.token" });
    expect((await acp(version, "GET", `/acp/checkout_sessions/${session.id}`)).body.status).toBe("ready_for_payment");
    expect(await paymentCount()).toBe(paymentsBefore);
  });

  it("statuses: not_ready_for_payment, no common handler, complete_in_progress, expired, canceled", async () => {
    const unknownItem = await acp(version, "POST", "/acp/checkout_sessions", {
      line_items: [{ id: "prd_nothing" }],
      currency: "usd",
      capabilities: {},
    });
    expect(unknownItem.body.status).toBe("not_ready_for_payment");

    const otherHandlers = await acp(version, "POST", "/acp/checkout_sessions", {
      line_items: [{ id: ebook }],
      currency: "usd",
      capabilities: { payment: { handlers: [{ id: "wallet", name: "com.example.wallet" }] } },
    });
    expect(otherHandlers.body.status).toBe("not_ready_for_payment");
    expect(otherHandlers.body.capabilities.payment.handlers).toEqual([]);
    expect(otherHandlers.body.capabilities.extensions).toBeUndefined();

    const session = (
      await acp(version, "POST", "/acp/checkout_sessions", { line_items: [{ id: ebook }], currency: "usd", capabilities: {} })
    ).body;
    // While a completion holds the session's completion lock, a reader sees complete_in_progress.
    await getDb().$transaction(async (tx) => {
      await holdCompletionLock(tx, session.id);
      expect((await acp(version, "GET", `/acp/checkout_sessions/${session.id}`)).body.status).toBe("complete_in_progress");
    });
    expect((await acp(version, "GET", `/acp/checkout_sessions/${session.id}`)).body.status).toBe("ready_for_payment");

    await getDb().acpCheckoutSession.update({ where: { id: session.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await acp(version, "GET", `/acp/checkout_sessions/${session.id}`)).body.status).toBe("expired");
    const late = await acp(version, "POST", `/acp/checkout_sessions/${session.id}`, { line_items: [{ id: ebook, quantity: 2 }] });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("checkout_session_expired");

    const toCancel = (
      await acp(version, "POST", "/acp/checkout_sessions", { line_items: [{ id: ebook }], currency: "usd", capabilities: {} })
    ).body;
    const canceled = await acp(version, "POST", `/acp/checkout_sessions/${toCancel.id}/cancel`, {});
    expect(canceled.body.status).toBe("canceled");
  });
});

/** The test card whose issuer demands 3-D Secure (lib/rails/test-cards.ts). */
const THREE_DS_CARD = "4000002760003184";

/** An attempted authentication as 2026-01-30 and 2026-04-17 name it (2026-01-16 called it `attempt`). */
const ATTEMPT_ACKNOWLEDGED = {
  outcome: "attempt_acknowledged",
  outcome_details: {
    three_ds_cryptogram: Buffer.alloc(20, 0x5a).toString("base64"),
    electronic_commerce_indicator: "06",
    transaction_id: "dsTransId_attempt",
    version: "2.2.0",
  },
};

describe.each(CURRENT)("ACP %s: 3-D Secure outcomes and idempotency as the version names them", (version) => {
  it("authentication_result takes the version's outcomes: attempt_acknowledged charges, denied declines, `attempt` is refused", async () => {
    const capabilities = { interventions: { supported: ["3ds"] } }; // else requires_escalation
    const session = (await acp(version, "POST", "/acp/checkout_sessions", { line_items: [{ id: ebook }], currency: "usd", capabilities }))
      .body;
    const token = await delegateToken(version, session.id, 1000, THREE_DS_CARD);
    const path = `/acp/checkout_sessions/${session.id}/complete`;
    const payment_data = { handler_id: "shared_payment_token", instrument: { type: "card", credential: { type: "spt", token } } };
    const before = await paymentCount();
    expect((await acp(version, "POST", path, { payment_data })).body.status).toBe("authentication_required");

    const legacy = { ...ATTEMPT_ACKNOWLEDGED, outcome: "attempt" };
    expect(acpSchema("agentic_checkout", version, "AuthenticationResult")(legacy), "not an outcome of this version").toBe(false);
    const refused = await acp(version, "POST", path, { payment_data, authentication_result: legacy });
    expect(refused.status).toBe(400);
    expect(refused.body.param).toBe("$.authentication_result.outcome");
    const denied = { outcome: "denied" };
    expectValid("agentic_checkout", version, "AuthenticationResult", denied);
    const declined = await acp(version, "POST", path, { payment_data, authentication_result: denied });
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ type: "processing_error", code: "payment_declined", param: "$.authentication_result.outcome" });
    expect(await paymentCount()).toBe(before);

    expectValid("agentic_checkout", version, "AuthenticationResult", ATTEMPT_ACKNOWLEDGED);
    const done = await acp(version, "POST", path, { payment_data, authentication_result: ATTEMPT_ACKNOWLEDGED });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe("completed");
    expect(await paymentCount()).toBe(before + 1);
  });

  it("a reused Idempotency-Key with another body: 422 idempotency_conflict at 2026-04-17, 409 at 2026-01-30", async () => {
    const headers = { "API-Version": version, "Idempotency-Key": randomUUID() };
    const body = { line_items: [{ id: ebook }], currency: "usd", capabilities: {} };
    const first = await call("POST", "/acp/checkout_sessions", { key: m.testKey, body, headers });
    expect(first.status).toBe(201);
    const replay = await call("POST", "/acp/checkout_sessions", { key: m.testKey, body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(first.body.id);
    const changed = { ...body, line_items: [{ id: ebook, quantity: 2 }] };
    const conflict = await call("POST", "/acp/checkout_sessions", { key: m.testKey, body: changed, headers });
    expect(conflict.status).toBe(version === "2026-04-17" ? 422 : 409);
    expect(conflict.body).toMatchObject({ type: "invalid_request", code: "idempotency_conflict" });
    expectValid("agentic_checkout", version, "Error", conflict.body);
  });
});

describe("ACP pricing settings changed through the API", () => {
  it("a discount code deleted through /v1/acp/discount_codes no longer applies to an open session", async () => {
    const version = "2026-04-17";
    await setting("/v1/acp/discount_codes", { code: "HALF", name: "half off", percentOff: 50 });
    const created = await acp(version, "POST", "/acp/checkout_sessions", {
      line_items: [{ id: ebook }],
      currency: "usd",
      capabilities: AGENT_CAPABILITIES,
      discounts: { codes: ["HALF"] },
    });
    expect(totalOf(created.body, "discount")).toBe(500);
    expect(totalOf(created.body, "total")).toBe(500);
    expect((await call("DELETE", "/v1/acp/discount_codes/HALF", { key: m.testKey })).status).toBe(200);
    const read = await acp(version, "GET", `/acp/checkout_sessions/${created.body.id}`);
    expect(read.body.discounts.rejected).toEqual([{ code: "HALF", reason: "discount_code_invalid" }]);
    expect(totalOf(read.body, "total")).toBe(1000);
  });
});

describe("ACP 2026-01-16, unchanged beside the new versions", () => {
  it("create -> update (digital chosen) -> complete with a token, every answer valid against 2026-01-16's schema", async () => {
    const version = "2026-01-16";
    const created = await acp(version, "POST", "/acp/checkout_sessions", { items: [{ id: ebook, quantity: 2 }] });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("ready_for_payment");
    const updated = await acp(version, "POST", `/acp/checkout_sessions/${created.body.id}`, {
      selected_fulfillment_options: [{ type: "digital", digital: { option_id: "digital", item_ids: ["li_1"] } }],
    });
    expect(updated.body.selected_fulfillment_options).toHaveLength(1);
    const token = await delegateToken(version, created.body.id, 2000);
    const completed = await acp(version, "POST", `/acp/checkout_sessions/${created.body.id}/complete`, {
      payment_data: { token, provider: "stripe" },
    });
    expect(completed.body.status).toBe("completed");
    expect((await getDb().order.findUniqueOrThrow({ where: { id: completed.body.order.id } })).amount).toBe(2000);
    // The new versions' bodies are not 2026-01-16's.
    const newBody = await acp(version, "POST", "/acp/checkout_sessions", {
      line_items: [{ id: ebook }],
      currency: "usd",
      capabilities: {},
    });
    expect(newBody.status).toBe(400);
  });
});
