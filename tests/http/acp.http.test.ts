// ACP checkout API and delegated payment (docs/acp.md), over HTTP against the running server. Every answer is
// validated against lib/acp/schemas.ts by tests/helpers/acp.ts. Proves: create -> update -> complete with a
// delegated token -> order paid (source acp), balance up; refunds work; a token outside its allowance is
// refused with nothing charged; ACP's idempotency rules one by one; API-Version; bad input on every path ->
// ACP's flat error, never a 500.
import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { hashSecret } from "../../lib/merchants/api-key-secret";
import { acpCall, API_VERSION } from "../helpers/acp";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let m: TestMerchant;
let other: TestMerchant;
const products: Record<string, string> = {};

async function product(key: string, body: Record<string, unknown>) {
  const res = await call("POST", "/v1/products", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  [m, other] = await Promise.all([createTestMerchant("ACP shop"), createTestMerchant("ACP other")]);
  products.pro = await product(m.testKey, { name: "Pro plan", unitAmount: 1500, currency: "usd", description: "A year of Pro" });
  products.sticker = await product(m.testKey, { name: "Sticker", unitAmount: 500, currency: "usd" });
  products.old = await product(m.testKey, { name: "Old edition", unitAmount: 700, currency: "usd" });
  products.euro = await product(m.testKey, { name: "Euro item", unitAmount: 900, currency: "eur" });
  products.foreign = await product(other.testKey, { name: "Not ours", unitAmount: 100, currency: "usd" });
  expect((await call("DELETE", `/v1/products/${products.old}`, { key: m.testKey })).status).toBe(200);
});

async function balanceTotal(key: string): Promise<number> {
  const body = (await call("GET", "/v1/balance", { key })).body;
  return [...body.pending, ...body.payable].filter((b: any) => b.currency === "USD").reduce((sum: number, b: any) => sum + b.amount, 0);
}

async function createSession(items: { id: string; quantity: number }[], key = m.testKey) {
  const res = await acpCall("POST", "/acp/checkout_sessions", { key, body: { items } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function delegateBody(
  sessionId: string,
  allowance: Record<string, unknown> = {},
  card: Record<string, unknown> = {},
  who: TestMerchant = m,
) {
  return {
    payment_method: {
      type: "card",
      card_number_type: "fpan",
      number: "4242424242424242",
      exp_month: "11",
      exp_year: "2030",
      display_card_funding_type: "credit",
      display_brand: "visa",
      display_last4: "4242",
      metadata: {},
      ...card,
    },
    allowance: {
      reason: "one_time",
      max_amount: 5000,
      currency: "usd",
      checkout_session_id: sessionId,
      merchant_id: who.merchantId,
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      ...allowance,
    },
    risk_signals: [{ type: "card_testing", score: 10, action: "authorized" }],
    metadata: { source: "agent_checkout" },
  };
}

async function delegate(
  sessionId: string,
  allowance: Record<string, unknown> = {},
  card: Record<string, unknown> = {},
  who: TestMerchant = m,
) {
  const res = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
    key: who.testKey,
    body: delegateBody(sessionId, allowance, card, who),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const complete = (sessionId: string, token: string, extra: Record<string, unknown> = {}, who: TestMerchant = m) =>
  acpCall("POST", `/acp/checkout_sessions/${sessionId}/complete`, {
    key: who.testKey,
    body: { payment_data: { token, provider: "service" }, ...extra },
  });

const acpPayments = (merchantId: string) => getDb().paymentIntent.count({ where: { merchantId, source: "acp" } });

describe("ACP checkout flow", () => {
  it("create -> update -> get -> delegate_payment -> complete: order paid with source acp, balance up; then refund", async () => {
    const requestId = `req-${randomUUID()}`;
    const created = await acpCall("POST", "/acp/checkout_sessions", {
      key: m.testKey,
      idem: "create-1-" + requestId,
      headers: { "Request-Id": requestId },
      body: { items: [{ id: products.pro, quantity: 1 }], buyer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" } },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("request-id")).toBe(requestId);
    expect(created.headers.get("idempotency-key")).toBe("create-1-" + requestId);
    const session = created.body;
    expect(session.status).toBe("ready_for_payment");
    expect(session.currency).toBe("usd");
    expect(session.line_items).toEqual([
      expect.objectContaining({
        item: { id: products.pro, quantity: 1 },
        base_amount: 1500,
        discount: 0,
        subtotal: 1500,
        tax: 0,
        total: 1500,
        name: "Pro plan",
        unit_amount: 1500,
      }),
    ]);
    expect(session.totals.find((t: any) => t.type === "total").amount).toBe(1500);
    expect(session.messages).toEqual([]);
    expect(session.payment_provider).toMatchObject({ provider: "stripe", merchant_id: m.merchantId });

    const updated = await acpCall("POST", `/acp/checkout_sessions/${session.id}`, {
      key: m.testKey,
      body: {
        items: [
          { id: products.pro, quantity: 1 },
          { id: products.sticker, quantity: 2 },
        ],
        selected_fulfillment_options: [{ type: "digital", digital: { option_id: "digital", item_ids: ["li_1", "li_2"] } }],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.line_items.map((l: any) => l.total)).toEqual([1500, 1000]);
    expect(updated.body.totals.find((t: any) => t.type === "total").amount).toBe(2500);
    expect(updated.body.selected_fulfillment_options).toHaveLength(1);

    const got = await acpCall("GET", `/acp/checkout_sessions/${session.id}`, { key: m.testKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(updated.body);

    const delegated = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
      key: m.testKey,
      idem: "dp-" + requestId,
      body: delegateBody(session.id, { max_amount: 2500 }),
    });
    expect(delegated.status).toBe(201);
    expect(delegated.body.id).toMatch(/^spt_/);
    expect(delegated.body.metadata).toEqual({ source: "agent_checkout", merchant_id: m.merchantId, idempotency_key: "dp-" + requestId });

    const before = await balanceTotal(m.testKey);
    const done = await complete(session.id, delegated.body.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe("completed");
    const order = done.body.order;
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      checkout_session_id: session.id,
      permalink_url: expect.stringContaining(`/acp/orders/${order.id}`),
    });
    expect(done.body.line_items.map((l: any) => [l.item.id, l.quantity ?? l.item.quantity, l.total])).toEqual([
      [products.pro, 1, 1500],
      [products.sticker, 2, 1000],
    ]);
    expect(await balanceTotal(m.testKey)).toBe(before + 2500);

    const v1Order = await call("GET", `/v1/orders/${order.id}`, { key: m.testKey });
    expect(v1Order.body).toMatchObject({ status: "paid", source: "acp", amount: 2500, currency: "USD" });
    const pi = await call("GET", `/v1/payment_intents/${v1Order.body.paymentIntentId}`, { key: m.testKey });
    // Captured; or settled already, when another test's tick ran the settlement (test mode settles on the next tick).
    expect(pi.body).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), source: "acp", amount: 2500 });
    // The completed order carries the service's signed receipt of the payment (docs/receipts.md).
    const receipt = await call("GET", `/v1/payment_intents/${pi.body.id}/receipt`, { key: m.testKey });
    expect(order.serviceReceipt).toBe(receipt.body.jws);

    // Completed: GET shows the order; cancel is 405; complete again is refused; the token is spent.
    const after = await acpCall("GET", `/acp/checkout_sessions/${session.id}`, { key: m.testKey });
    expect(after.body.status).toBe("completed");
    expect(after.body.order).toEqual(order);
    const cancel = await acpCall("POST", `/acp/checkout_sessions/${session.id}/cancel`, { key: m.testKey, body: {} });
    expect(cancel.status).toBe(405);
    expect(cancel.body.type).toBe("invalid_request");
    const again = await complete(session.id, delegated.body.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("checkout_session_completed");

    const refund = await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: pi.body.id } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect((await call("GET", `/v1/orders/${order.id}`, { key: m.testKey })).body.status).toBe("refunded");

    // The order permalink page shows the order and its lines.
    const page = await fetch(order.permalink_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Pro plan");
    expect(html).toContain("Sticker");
  });

  it("cancel: an open session is canceled (200), then 405; a canceled session cannot be completed", async () => {
    const session = await createSession([{ id: products.sticker, quantity: 1 }]);
    const token = await delegate(session.id);
    const canceled = await acpCall("POST", `/acp/checkout_sessions/${session.id}/cancel`, {
      key: m.testKey,
      body: { intent_trace: { reason_code: "price_sensitivity", trace_summary: "too dear" } },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe("canceled");
    expect((await acpCall("POST", `/acp/checkout_sessions/${session.id}/cancel`, { key: m.testKey })).status).toBe(405);
    const paid = await complete(session.id, token);
    expect(paid.status).toBe(409);
    expect(paid.body.code).toBe("checkout_session_canceled");
    const update = await acpCall("POST", `/acp/checkout_sessions/${session.id}`, {
      key: m.testKey,
      body: { items: [{ id: products.pro, quantity: 1 }] },
    });
    expect(update.status).toBe(409);
  });

  it("messages: an archived product is out_of_stock, an unknown one invalid, another currency invalid; such a cart cannot be paid", async () => {
    const session = await createSession([
      { id: products.pro, quantity: 1 },
      { id: products.old, quantity: 1 },
      { id: "prd_doesnotexist000000000000", quantity: 1 },
      { id: products.euro, quantity: 1 },
      { id: products.foreign, quantity: 1 },
    ]);
    expect(session.status).toBe("not_ready_for_payment");
    expect(session.messages.map((msg: any) => [msg.code, msg.param])).toEqual([
      ["out_of_stock", "$.line_items[1]"],
      ["invalid", "$.line_items[2]"],
      ["invalid", "$.line_items[3]"],
      ["invalid", "$.line_items[4]"],
    ]);
    const token = await delegate(session.id);
    const res = await complete(session.id, token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "invalid_request", code: "out_of_stock", param: "$.line_items[1]" });
    // Fixed by an update: ready again.
    const fixed = await acpCall("POST", `/acp/checkout_sessions/${session.id}`, {
      key: m.testKey,
      body: { items: [{ id: products.pro, quantity: 1 }] },
    });
    expect(fixed.body.status).toBe("ready_for_payment");
    expect(fixed.body.messages).toEqual([]);
  });
});

describe("a token outside its allowance is refused with nothing charged", () => {
  it("amount above max_amount, another session, another currency, unknown token, declined card", async () => {
    const session = await createSession([{ id: products.pro, quantity: 2 }]); // 3000
    const otherSession = await createSession([{ id: products.sticker, quantity: 1 }]);
    const before = await acpPayments(m.merchantId);
    const capturedAcp = () =>
      getDb().paymentIntent.count({ where: { merchantId: m.merchantId, source: "acp", status: { not: "failed" } } });
    const capturedBefore = await capturedAcp();
    const balance = await balanceTotal(m.testKey);

    const small = await delegate(session.id, { max_amount: 2999 });
    const tooMuch = await complete(session.id, small);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ type: "invalid_request", code: "amount_exceeds_max", param: "$.payment_data.token" });

    const forOther = await delegate(otherSession.id);
    const wrongSession = await complete(session.id, forOther);
    expect(wrongSession.status).toBe(400);
    expect(wrongSession.body).toMatchObject({ code: "checkout_session_mismatch", param: "$.payment_data.token" });

    const euros = await delegate(session.id, { currency: "eur" });
    const wrongCurrency = await complete(session.id, euros);
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.code).toBe("currency_mismatch");

    const unknown = await complete(session.id, "spt_unknownunknownunknown0000");
    expect(unknown.status).toBe(400);
    expect(unknown.body.param).toBe("$.payment_data.token");

    const declining = await delegate(session.id, {}, { number: "4000000000000002" });
    const declined = await complete(session.id, declining);
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ type: "processing_error", code: "payment_declined" });

    expect(await balanceTotal(m.testKey)).toBe(balance);
    const still = await acpCall("GET", `/acp/checkout_sessions/${session.id}`, { key: m.testKey });
    expect(still.body.status).toBe("ready_for_payment");
    // Nothing captured: only the declined attempt left a (failed) PaymentIntent.
    expect(await capturedAcp()).toBe(capturedBefore);
    expect(await acpPayments(m.merchantId)).toBe(before + 1);

    // The token minted for this session still pays it, once (vt_ alias accepted).
    const good = await delegate(session.id, { max_amount: 3000 });
    const paid = await complete(session.id, `vt_${good.slice(4)}`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await balanceTotal(m.testKey)).toBe(balance + 3000);
    // A delegated token pays only its session: the /v1 redemption of another session's token is refused.
    const bound = await delegate(otherSession.id);
    const redeem = await call("POST", `/v1/shared_payment_tokens/${bound}/redeem`, {
      key: m.testKey,
      body: { amount: 100, currency: "usd" },
    });
    expect(redeem.status).toBe(400);
  });

  it("delegate_payment refuses an allowance it cannot honour", async () => {
    const session = await createSession([{ id: products.pro, quantity: 1 }]);
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ merchant_id: other.merchantId }, {}, "$.allowance.merchant_id"],
      [{ checkout_session_id: "acs_nonexistent00000000000000" }, {}, "$.allowance.checkout_session_id"],
      [{ expires_at: new Date(Date.now() - 1000).toISOString() }, {}, "$.allowance.expires_at"],
      [{}, { number: "1234123412341234" }, "$.payment_method.number"],
      [{ currency: "USD" }, {}, "$.allowance.currency"],
      [{ reason: "recurring" }, {}, "$.allowance.reason"],
    ];
    for (const [allowance, card, param] of cases) {
      const res = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
        key: m.testKey,
        body: delegateBody(session.id, allowance, card),
      });
      expect(res.status, param).toBe(400);
      expect(res.body, param).toMatchObject({ type: "invalid_request", code: "invalid_card", param });
    }
    const blocked = delegateBody(session.id);
    blocked.risk_signals = [{ type: "card_testing", score: 99, action: "blocked" }];
    const res = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", { key: m.testKey, body: blocked });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe("$.risk_signals[0]");
  });
});

describe("concurrency is decided by the database", () => {
  // A merchant of its own (its own rate-limit bucket).
  let c: TestMerchant;
  let item: string;
  beforeAll(async () => {
    c = await createTestMerchant("ACP concurrency");
    item = await product(c.testKey, { name: "Seat", unitAmount: 1500, currency: "usd" });
  });

  it("eight concurrent completes of one session (two tokens, eight keys): one charge, the rest refused", async () => {
    const session = await createSession([{ id: item, quantity: 1 }], c.testKey);
    const tokens = [await delegate(session.id, {}, {}, c), await delegate(session.id, {}, {}, c)];
    const before = await balanceTotal(c.testKey);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => complete(session.id, tokens[i % 2], {}, c)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok, JSON.stringify(results.map((r) => [r.status, r.body.code]))).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect([400, 409]).toContain(r.status);
      expect(["checkout_session_completed", "conflict", "token_redeemed"]).toContain(r.body.code);
    }
    expect(await balanceTotal(c.testKey)).toBe(before + 1500);
    const orders = await getDb().acpCheckoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(orders.orderId).toBe(ok[0].body.order.id);
  });

  it("ten concurrent copies of one complete (one key): one charge; the others replay it or answer in flight with Retry-After", async () => {
    const session = await createSession([{ id: item, quantity: 1 }], c.testKey);
    const token = await delegate(session.id, {}, {}, c);
    const idem = randomUUID();
    const before = await balanceTotal(c.testKey);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, {
          key: c.testKey,
          idem,
          body: { payment_data: { token, provider: "service" } },
        }),
      ),
    );
    const fresh = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") !== "true");
    const replayed = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") === "true");
    const inFlight = results.filter((r) => r.status === 409);
    expect(fresh).toHaveLength(1);
    expect(replayed.length + inFlight.length).toBe(9);
    for (const r of replayed) expect(r.body.order.id).toBe(fresh[0].body.order.id);
    for (const r of inFlight) {
      expect(r.body.code).toBe("idempotency_in_flight");
      expect(r.headers.get("retry-after")).toBeTruthy();
    }
    expect(await balanceTotal(c.testKey)).toBe(before + 1500);
  });
});

describe("ACP idempotency, rule by rule", () => {
  async function putInFlight(key: string, path: string, idem: string) {
    const [apiKey] = await getDb().$queryRaw<{ id: string }[]>`SELECT id FROM api_keys WHERE secret_hash = ${hashSecret(key)}`;
    const scoped = `acp:${createHash("sha256").update(`${path}\n${idem}`).digest("hex")}`;
    await getDb().$executeRaw`
      INSERT INTO idempotency_records (id, api_key_id, livemode, key, fingerprint, status, locked_until, created_at)
      VALUES (${`idem_${randomUUID().replace(/-/g, "")}`}, ${apiKey.id}, false, ${scoped}, 'x', 'in_flight', now() + interval '5 minutes', now())`;
  }

  it("missing Idempotency-Key: 400 idempotency_key_required on every POST", async () => {
    const session = await createSession([{ id: products.pro, quantity: 1 }]);
    for (const path of [
      "/acp/checkout_sessions",
      `/acp/checkout_sessions/${session.id}`,
      `/acp/checkout_sessions/${session.id}/complete`,
      `/acp/checkout_sessions/${session.id}/cancel`,
      "/acp/agentic_commerce/delegate_payment",
    ]) {
      const res = await acpCall("POST", path, { key: m.testKey, idem: null, body: {} });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ type: "invalid_request", code: "idempotency_key_required" });
    }
  });

  it("same key + same body: the original answer replayed (Idempotent-Replayed), nothing done twice", async () => {
    const idem = randomUUID();
    const body = { items: [{ id: products.sticker, quantity: 3 }] };
    const first = await acpCall("POST", "/acp/checkout_sessions", { key: m.testKey, idem, body });
    const second = await acpCall("POST", "/acp/checkout_sessions", {
      key: m.testKey,
      idem,
      body: { items: [{ quantity: 3, id: products.sticker }] },
    });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get("idempotency-key")).toBe(idem);

    const session = first.body;
    const dpIdem = randomUUID();
    const dp1 = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
      key: m.testKey,
      idem: dpIdem,
      body: delegateBody(session.id),
    });
    const dp2 = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
      key: m.testKey,
      idem: dpIdem,
      body: delegateBody(session.id, { expires_at: delegateBody(session.id).allowance.expires_at }),
    });
    expect(dp1.status).toBe(201);
    expect(dp2.headers.get("idempotent-replayed") ?? "true").toBe("true");

    const cIdem = randomUUID();
    const before = await balanceTotal(m.testKey);
    const c1 = await acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      key: m.testKey,
      idem: cIdem,
      body: { payment_data: { token: dp1.body.id, provider: "stripe" } },
    });
    const c2 = await acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      key: m.testKey,
      idem: cIdem,
      body: { payment_data: { token: dp1.body.id, provider: "stripe" } },
    });
    expect(c1.status).toBe(200);
    expect(c2.status).toBe(200);
    expect(c2.headers.get("idempotent-replayed")).toBe("true");
    expect(c2.body.order.id).toBe(c1.body.order.id);
    expect(await balanceTotal(m.testKey)).toBe(before + 1500);
  });

  it("same key + other body: 409 idempotency_conflict on checkout sessions, 422 on delegate_payment", async () => {
    const idem = randomUUID();
    await acpCall("POST", "/acp/checkout_sessions", { key: m.testKey, idem, body: { items: [{ id: products.sticker, quantity: 1 }] } });
    const conflict = await acpCall("POST", "/acp/checkout_sessions", {
      key: m.testKey,
      idem,
      body: { items: [{ id: products.sticker, quantity: 2 }] },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ type: "invalid_request", code: "idempotency_conflict" });

    const session = await createSession([{ id: products.sticker, quantity: 1 }]);
    const dpIdem = randomUUID();
    expect(
      (
        await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
          key: m.testKey,
          idem: dpIdem,
          body: delegateBody(session.id, { max_amount: 100 }),
        })
      ).status,
    ).toBe(201);
    const mismatch = await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
      key: m.testKey,
      idem: dpIdem,
      body: delegateBody(session.id, { max_amount: 200 }),
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({ type: "invalid_request", code: "idempotency_conflict" });
  });

  it("a key still in flight: 409 idempotency_in_flight with Retry-After, on both APIs", async () => {
    const session = await createSession([{ id: products.sticker, quantity: 1 }]);
    for (const path of [
      "/acp/checkout_sessions",
      `/acp/checkout_sessions/${session.id}/complete`,
      "/acp/agentic_commerce/delegate_payment",
    ]) {
      const idem = randomUUID();
      await putInFlight(m.testKey, path, idem);
      const body = path.endsWith("delegate_payment")
        ? delegateBody(session.id)
        : path.endsWith("complete")
          ? { payment_data: { token: "spt_x0000000000", provider: "service" } }
          : { items: [{ id: products.pro, quantity: 1 }] };
      const res = await acpCall("POST", path, { key: m.testKey, idem, body });
      expect(res.status, path).toBe(409);
      expect(res.body, path).toMatchObject({ type: "invalid_request", code: "idempotency_in_flight" });
      expect(Number(res.headers.get("retry-after")), path).toBeGreaterThan(0);
    }
  });

  it("keys are scoped to the endpoint path: one key on two paths is two requests", async () => {
    const idem = randomUUID();
    const created = await acpCall("POST", "/acp/checkout_sessions", {
      key: m.testKey,
      idem,
      body: { items: [{ id: products.sticker, quantity: 1 }] },
    });
    const updated = await acpCall("POST", `/acp/checkout_sessions/${created.body.id}`, {
      key: m.testKey,
      idem,
      body: { items: [{ id: products.sticker, quantity: 4 }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.line_items[0].item.quantity).toBe(4);
  });
});

describe("headers and bad input: ACP's flat error on every path, never a 500", () => {
  it("API-Version is required and must be one this service answers", async () => {
    const missing = await acpCall("POST", "/acp/checkout_sessions", {
      key: m.testKey,
      version: null,
      body: { items: [{ id: products.pro, quantity: 1 }] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      type: "invalid_request",
      code: "missing_api_version",
      supported_versions: [API_VERSION, "2026-01-30", "2026-04-17"],
    });
    const unsupported = await acpCall("GET", "/acp/checkout_sessions/acs_x", { key: m.testKey, version: "2020-01-01" });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.code).toBe("unsupported_api_version");
  });

  it("every path: no key 401, another merchant's session 404, malformed JSON, wrong types, unknown fields -> 4xx flat errors", async () => {
    // A merchant of its own: this test alone makes ~70 calls, within one key's rate limit.
    const b = await createTestMerchant("ACP bad input");
    const item = await product(b.testKey, { name: "Widget", unitAmount: 300, currency: "usd" });
    const session = await createSession([{ id: item, quantity: 1 }], b.testKey);
    const paths: [string, string, unknown][] = [
      ["POST", "/acp/checkout_sessions", { items: [{ id: item, quantity: 1 }] }],
      ["GET", `/acp/checkout_sessions/${session.id}`, undefined],
      ["POST", `/acp/checkout_sessions/${session.id}`, { items: [{ id: item, quantity: 1 }] }],
      ["POST", `/acp/checkout_sessions/${session.id}/complete`, { payment_data: { token: "spt_x0000000000", provider: "service" } }],
      ["POST", `/acp/checkout_sessions/${session.id}/cancel`, {}],
      [
        "POST",
        "/acp/agentic_commerce/delegate_payment",
        { ...delegateBody(session.id), allowance: { ...delegateBody(session.id).allowance, merchant_id: b.merchantId } },
      ],
    ];
    for (const [method, path, body] of paths) {
      const noKey = await acpCall(method, path, { body });
      expect(noKey.status, path).toBe(401);
      if (path.includes(session.id)) {
        const foreign = await acpCall(method, path, { key: other.testKey, body });
        expect(foreign.status, path).toBe(path.endsWith("delegate_payment") ? 400 : 404);
      }
      if (method === "POST") {
        for (const rawBody of [
          "{not json",
          "[]",
          '"text"',
          '{"items": "many"}',
          '{"unknown_field": 1}',
          JSON.stringify({ items: [{ id: item, quantity: -1 }] }),
          JSON.stringify({ payment_data: { token: 5 } }),
        ]) {
          const res = await acpCall(method, path, { key: b.testKey, rawBody });
          expect([200, 201, 400], `${path} ${rawBody}`).toContain(res.status);
          if (res.status === 400) expect(res.body.type, `${path} ${rawBody}`).toBe("invalid_request");
        }
      }
    }
    const live = await acpCall("GET", `/acp/checkout_sessions/${session.id}`, { key: b.liveKey });
    expect(live.status).toBe(404);
    for (const [method, path] of [
      ["GET", "/acp/checkout_sessions"],
      ["DELETE", `/acp/checkout_sessions/${session.id}`],
      ["GET", `/acp/checkout_sessions/${session.id}/complete`],
      ["PUT", "/acp/agentic_commerce/delegate_payment"],
    ]) {
      const res = await acpCall(method, path, { key: b.testKey });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.body.code).toBe("method_not_allowed");
    }
    const unknownRoute = await acpCall("GET", "/acp/nothing/here", { key: b.testKey });
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.type).toBe("invalid_request");
    const bigBody = await acpCall("POST", "/acp/checkout_sessions", {
      key: b.testKey,
      rawBody: JSON.stringify({ items: [{ id: "x".repeat(70_000), quantity: 1 }] }),
    });
    expect(bigBody.status).toBe(400);
    const badParam = await acpCall("POST", "/acp/checkout_sessions", { key: b.testKey, body: { items: [{ id: item, quantity: 0 }] } });
    expect(badParam.body.param).toBe("$.items[0].quantity");
  });
});
