// Shared payment tokens (docs/shared-payment-tokens.md) over HTTP against real servers: minted by a
// payer with its own key, scoped (amount, currency, merchant, expiry), single-use, revocable, redeemed by the
// merchant into a captured PaymentIntent through the usual checkout capture (ledger, events, refunds), and
// never twice: not under 24 concurrent redemptions over two server processes, not after a crash mid-charge.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { ServiceClient, ServiceError } from "agent-payments-sdk";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { createCustomer, railChargesFor, sleep, paymentEventTypesFor, CAPTURED_OR_SETTLED } from "../helpers/payments";
import { startTestServer, waitForExit } from "../helpers/server";

let payee: TestMerchant;
let payer: TestMerchant;
let other: TestMerchant;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  [payee, payer, other] = await Promise.all([
    createTestMerchant("SPT payee"),
    createTestMerchant("SPT payer"),
    createTestMerchant("SPT other"),
  ]);
});
afterAll(() => Promise.all(servers.map((s) => s.stop())));

async function mint(body: Record<string, unknown> = {}, key = payer.testKey, base?: string) {
  const res = await call("POST", "/v1/shared_payment_tokens", {
    key,
    base,
    body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", merchantId: payee.merchantId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function redeem(
  tokenId: string,
  body: Record<string, unknown> = {},
  options: { key?: string; base?: string; headers?: Record<string, string> } = {},
) {
  return call("POST", `/v1/shared_payment_tokens/${tokenId}/redeem`, {
    key: options.key ?? payee.testKey,
    base: options.base,
    headers: options.headers,
    body: { amount: 700, currency: "usd", ...body },
  });
}

async function walletBalance(customerId: string): Promise<number> {
  const row = await getDb().testWallet.findUnique({ where: { customerId_currency: { customerId, currency: "USD" } } });
  return row?.balance ?? 0;
}

async function sptPayments(merchantId: string): Promise<number> {
  return getDb().paymentIntent.count({ where: { merchantId, source: "spt" } });
}

describe("minting (the payer's own key)", () => {
  it("mints an active, scoped token: spt_ id, currency upper-case, default expiry one hour", async () => {
    const token = await mint({ metadata: { agent: "a1" } });
    expect(token).toMatchObject({
      object: "shared_payment_token",
      status: "active",
      paymentMethod: "pm_card_visa",
      maxAmount: 1000,
      currency: "USD",
      merchantId: payee.merchantId,
      metadata: { agent: "a1" },
      livemode: false,
      paymentIntentId: null,
      redeemedAt: null,
      revokedAt: null,
    });
    expect(token.id).toMatch(/^spt_[0-9A-Za-z]{24}$/);
    expect(Date.parse(token.expiresAt) - Date.parse(token.createdAt)).toBeCloseTo(3600_000, -3);
    const anyMerchant = await mint({ merchantId: undefined });
    expect(anyMerchant.merchantId).toBeNull();
    const read = await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey });
    expect(read.body).toEqual(token);
  });

  it("takes a test card number as the pay page does, kept only as its test payment method", async () => {
    const token = await mint({ paymentMethod: "4242 4242 4242 4242" });
    expect(token.paymentMethod).toBe("pm_card_visa");
    const row = await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(JSON.stringify(row)).not.toContain("4242424242424242");
  });

  it("refuses what could never pay, and bad input, with clear 4xx", async () => {
    const theirCustomer = await createCustomer(other.testKey);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ paymentMethod: "4000 0000 0000 1234" }, 400, "paymentMethod"],
      [{ paymentMethod: "pm_card_bogus" }, 400, "paymentMethod"],
      [{ paymentMethod: theirCustomer.id }, 404, ""],
      [{ merchantId: "mer_000000000000000000000000" }, 404, ""],
      [{ expiresAt: new Date(Date.now() - 1000).toISOString() }, 400, "expiresAt"],
      [{ expiresAt: new Date(Date.now() + 31 * 86400_000).toISOString() }, 400, "expiresAt"],
      [{ expiresAt: "tomorrow" }, 400, "expiresAt"],
      [{ maxAmount: 0 }, 400, "maxAmount"],
      [{ maxAmount: 10.5 }, 400, "maxAmount"],
      [{ currency: "dollars" }, 400, "currency"],
      [{ merchantId: "shop" }, 400, "merchantId"],
      [{ surprise: true }, 400, ""],
    ];
    for (const [body, status, path] of cases) {
      const res = await call("POST", "/v1/shared_payment_tokens", {
        key: payer.testKey,
        body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (path)
        expect(
          res.body.error.details.fields.map((f: any) => f.path),
          JSON.stringify(body),
        ).toContain(path);
    }
    expect(
      (await call("POST", "/v1/shared_payment_tokens", { body: { paymentMethod: "pm_card_visa", maxAmount: 1, currency: "usd" } })).status,
    ).toBe(401);
  });
});

describe("redeeming (the merchant's key)", () => {
  it("charges once into a captured PaymentIntent and paid order (source spt), with events, ledger and the payer's receipt", async () => {
    const token = await mint();
    const res = await redeem(token.id, { description: "Agent purchase", metadata: { cart: "c1" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const pi = res.body;
    expect(pi).toMatchObject({
      object: "payment_intent",
      status: "captured",
      amount: 700,
      amountCaptured: 700,
      currency: "USD",
      paymentMethod: "pm_card_visa",
      source: "spt",
      livemode: false,
    });
    expect((await call("GET", `/v1/orders/${pi.orderId}`, { key: payee.testKey })).body).toMatchObject({
      status: "paid",
      amount: 700,
      source: "spt",
    });
    expect((await call("GET", `/v1/checkouts/${pi.checkoutId}`, { key: payee.testKey })).body).toMatchObject({
      status: "complete",
      description: "Agent purchase",
      metadata: { cart: "c1" },
    });
    expect(await paymentEventTypesFor(payee.testKey, pi.id)).toEqual(["payment_intent.captured"]);
    expect(await paymentEventTypesFor(payee.testKey, pi.orderId)).toEqual(["order.paid"]);
    expect(await railChargesFor(pi.id)).toBe(1);
    expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);

    const receipt = await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey });
    expect(receipt.body).toMatchObject({ status: "redeemed", paymentIntentId: pi.id, redeemedAmount: 700 });
    expect(receipt.body.redeemedAt).toBeTruthy();
    // The payer cannot read the payee's PaymentIntent.
    expect((await call("GET", `/v1/payment_intents/${pi.id}`, { key: payer.testKey })).status).toBe(404);

    // Used: refused, nothing moves; the redeeming merchant is told its PaymentIntent.
    const again = await redeem(token.id);
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({ code: "GONE", details: { reason: "token_redeemed", paymentIntentId: pi.id } });
    expect(await railChargesFor(pi.id)).toBe(1);

    // The payment refunds like any other.
    const refund = await call("POST", "/v1/refunds", { key: payee.testKey, body: { paymentIntentId: pi.id, amount: 200 } });
    expect(refund.status).toBe(201);
    expect((await call("GET", `/v1/orders/${pi.orderId}`, { key: payee.testKey })).body).toMatchObject({
      status: "partially_refunded",
      amountRefunded: 200,
    });
  });

  it("a payer's own customer wallet pays; the payee sees customer_wallet, never the payer's cus_ id", async () => {
    const wallet = await createCustomer(payer.testKey, { amount: 5000, currency: "usd" });
    const token = await mint({ paymentMethod: wallet.id, maxAmount: 2000 });
    const res = await redeem(token.id, { amount: 1200 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: CAPTURED_OR_SETTLED, amount: 1200, paymentMethod: "customer_wallet", customerId: null });
    expect(JSON.stringify(res.body)).not.toContain(wallet.id);
    expect(await walletBalance(wallet.id)).toBe(3800);
    await call("POST", "/v1/refunds", { key: payee.testKey, body: { paymentIntentId: res.body.id } });
    expect(await walletBalance(wallet.id)).toBe(5000);
  });

  it("catalog items price the charge; it must still fit the token", async () => {
    const product = await call("POST", "/v1/products", { key: payee.testKey, body: { name: "Report", unitAmount: 450, currency: "usd" } });
    const token = await mint();
    const tooMuch = await call("POST", `/v1/shared_payment_tokens/${token.id}/redeem`, {
      key: payee.testKey,
      body: { items: [{ productId: product.body.id, quantity: 3 }] },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.details).toMatchObject({ reason: "amount_exceeds_max", fields: [{ path: "amount" }] });
    const ok = await call("POST", `/v1/shared_payment_tokens/${token.id}/redeem`, {
      key: payee.testKey,
      body: { items: [{ productId: product.body.id, quantity: 2 }] },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ amount: 900, source: "spt" });
    expect((await call("GET", `/v1/orders/${ok.body.orderId}`, { key: payee.testKey })).body.items).toEqual([
      { name: "Report", quantity: 2, unitAmount: 450, productId: product.body.id },
    ]);
  });

  it("refuses with nothing charged: above maxAmount, another currency, another merchant, expired, revoked, unknown, the other mode", async () => {
    const before = await sptPayments(payee.merchantId);
    const token = await mint();
    const above = await redeem(token.id, { amount: 1001 });
    expect(above.status).toBe(400);
    expect(above.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { reason: "amount_exceeds_max", fields: [{ path: "amount" }] },
    });
    const currency = await redeem(token.id, { currency: "eur" });
    expect(currency.status).toBe(400);
    expect(currency.body.error.details.reason).toBe("currency_mismatch");
    const foreign = await redeem(token.id, {}, { key: other.testKey });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: "FORBIDDEN", details: { reason: "merchant_mismatch" } });
    expect((await redeem(token.id, {}, { key: payee.liveKey })).status).toBe(404);
    expect((await redeem("spt_000000000000000000000000")).status).toBe(404);

    const shortLived = await mint({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    await sleep(1700);
    const expired = await redeem(shortLived.id);
    expect(expired.status).toBe(410);
    expect(expired.body.error.details).toEqual({ reason: "token_expired" });
    expect((await call("GET", `/v1/shared_payment_tokens/${shortLived.id}`, { key: payer.testKey })).body.status).toBe("expired");

    const revoked = await mint();
    expect((await call("POST", `/v1/shared_payment_tokens/${revoked.id}/revoke`, { key: payer.testKey })).body.status).toBe("revoked");
    const afterRevoke = await redeem(revoked.id);
    expect(afterRevoke.status).toBe(410);
    expect(afterRevoke.body.error.details).toEqual({ reason: "token_revoked" });

    expect(await sptPayments(payee.merchantId)).toBe(before); // not even a PaymentIntent was opened
    expect((await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey })).body.status).toBe("active");
    // A token naming no merchant is redeemable by any merchant (once); it is then that merchant's.
    const open = await mint({ merchantId: undefined });
    expect((await redeem(open.id, {}, { key: other.testKey })).status).toBe(201);
    expect((await redeem(open.id)).status).toBe(403);
    expect((await redeem(open.id, {}, { key: other.testKey })).status).toBe(410);
  });

  it("a token minted for no merchant is bound to the first merchant that tries it, a declined try included; another merchant is then refused", async () => {
    const wallet = await createCustomer(payer.testKey, { amount: 100, currency: "usd" }); // too little for 700
    const token = await mint({ paymentMethod: wallet.id, merchantId: undefined, maxAmount: 2000 });
    const declined = await redeem(token.id, { amount: 700 }, { key: other.testKey });
    expect(declined.status).toBe(402);
    expect(declined.body.error.details.reason).toBe("insufficient_funds");
    const read = await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey });
    expect(read.body).toMatchObject({ status: "active", merchantId: other.merchantId });
    expect(
      (await call("POST", `/v1/customers/${wallet.id}/fund`, { key: payer.testKey, body: { amount: 5000, currency: "usd" } })).status,
    ).toBe(200);
    // Another merchant now gets what a token named for someone else gets, and nothing moves.
    const before = await sptPayments(payee.merchantId);
    const second = await redeem(token.id, { amount: 700 });
    expect(second.status).toBe(403);
    expect(second.body.error).toMatchObject({ code: "FORBIDDEN", details: { reason: "merchant_mismatch" } });
    expect(await sptPayments(payee.merchantId)).toBe(before);
    expect(await walletBalance(wallet.id)).toBe(5100);
    // The merchant it is bound to can still use it.
    const first = await redeem(token.id, { amount: 700 }, { key: other.testKey });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(await walletBalance(wallet.id)).toBe(4400);
  });

  it("two merchants trying an unbound token at once: it is bound to one of them only", async () => {
    const token = await mint({ paymentMethod: "pm_card_chargeDeclined", merchantId: undefined });
    const tries = await Promise.all(
      Array.from({ length: 8 }, (_, i) => redeem(token.id, { amount: 100 }, { key: i % 2 ? other.testKey : payee.testKey })),
    );
    const bound = (await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey })).body.merchantId;
    expect([payee.merchantId, other.merchantId]).toContain(bound);
    const boundKey = bound === payee.merchantId ? payee.testKey : other.testKey;
    tries.forEach((res, i) => {
      const mine = (i % 2 ? other.testKey : payee.testKey) === boundKey;
      // The bound merchant's tries are declines (or 409 while another holds the token); never a 403.
      if (mine) expect([402, 409], JSON.stringify(res.body)).toContain(res.status);
      else expect([403, 409], JSON.stringify(res.body)).toContain(res.status);
    });
    const loser = boundKey === payee.testKey ? other.testKey : payee.testKey;
    expect((await redeem(token.id, { amount: 100 }, { key: loser })).status).toBe(403);
  });

  it("a declined charge is 402 and leaves the token active (nothing moved); a rail outage is 502 and leaves nothing", async () => {
    const declined = await mint({ paymentMethod: "pm_card_chargeDeclinedInsufficientFunds" });
    const res = await redeem(declined.id);
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "insufficient_funds" } });
    expect((await call("GET", `/v1/shared_payment_tokens/${declined.id}`, { key: payer.testKey })).body.status).toBe("active");
    const failed = await getDb().paymentIntent.findMany({ where: { merchantId: payee.merchantId, source: "spt", status: "failed" } });
    expect(failed.length).toBeGreaterThan(0);

    const down = await mint({ paymentMethod: "pm_rail_unavailable" });
    const before = await sptPayments(payee.merchantId);
    const outage = await redeem(down.id);
    expect(outage.status).toBe(502);
    expect(await sptPayments(payee.merchantId)).toBe(before);
    expect((await call("GET", `/v1/shared_payment_tokens/${down.id}`, { key: payer.testKey })).body.status).toBe("active");
  });

  it("the same Idempotency-Key replays the one payment", async () => {
    const token = await mint();
    const headers = { "Idempotency-Key": `redeem-${token.id}` };
    const first = await redeem(token.id, {}, { headers });
    const second = await redeem(token.id, {}, { headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.id).toBe(first.body.id);
  });

  it("bad redeem bodies are 400 before the token is touched", async () => {
    const token = await mint();
    for (const body of [{ amount: -1 }, { amount: 1.5 }, { expiresInSeconds: 60 }, { customerId: "cus_x" }, { surprise: 1 }]) {
      const res = await redeem(token.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey })).body.status).toBe("active");
  });
});

describe("through the SDK", () => {
  it("the payer mints and lists with its client, the merchant redeems with its own; a second redeem is a ServiceError GONE", async () => {
    const payerClient = new ServiceClient({ baseUrl: baseUrl(), apiKey: payer.testKey });
    const merchantClient = new ServiceClient({ baseUrl: baseUrl(), apiKey: payee.testKey });
    const token = await payerClient.sharedPaymentTokens.create({
      paymentMethod: "pm_card_mastercard",
      maxAmount: 300,
      currency: "usd",
      merchantId: payee.merchantId,
    });
    expect(token.status).toBe("active");
    const pi = await merchantClient.sharedPaymentTokens.redeem(token.id, { amount: 300 });
    expect(pi).toMatchObject({ status: CAPTURED_OR_SETTLED, amount: 300, source: "spt" });
    const again = await merchantClient.sharedPaymentTokens.redeem(token.id, { amount: 300 }).catch((err: unknown) => err);
    expect(ServiceError.is(again) && again.code).toBe("GONE");
    expect((await payerClient.sharedPaymentTokens.retrieve(token.id)).paymentIntentId).toBe(pi.id);
    expect((await merchantClient.paymentIntents.list({ source: "spt", limit: 1 })).data[0].id).toBe(pi.id);
  });
});

describe("revoking and listing (the payer's key)", () => {
  it("revoke is the payer's alone, repeatable, and refused once the token has paid", async () => {
    const token = await mint();
    for (const key of [payee.testKey, other.testKey, payer.liveKey]) {
      expect((await call("POST", `/v1/shared_payment_tokens/${token.id}/revoke`, { key })).status).toBe(404);
      expect((await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key })).status).toBe(404);
    }
    const revoked = await call("POST", `/v1/shared_payment_tokens/${token.id}/revoke`, { key: payer.testKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked" });
    expect(revoked.body.revokedAt).toBeTruthy();
    expect((await call("POST", `/v1/shared_payment_tokens/${token.id}/revoke`, { key: payer.testKey })).body.status).toBe("revoked");

    const paid = await mint();
    expect((await redeem(paid.id)).status).toBe(201);
    const late = await call("POST", `/v1/shared_payment_tokens/${paid.id}/revoke`, { key: payer.testKey });
    expect(late.status).toBe(409);
    expect(late.body.error.details.reason).toBe("token_redeemed");
  });

  it("lists the payer's tokens newest first, by status, with the cursor; nobody else sees them", async () => {
    const lister = await createTestMerchant("SPT lister");
    const mk = (body: Record<string, unknown> = {}) => mint({ merchantId: undefined, ...body }, lister.testKey);
    const a = await mk();
    const b = await mk();
    const c = await mk();
    await call("POST", `/v1/shared_payment_tokens/${b.id}/revoke`, { key: lister.testKey });
    expect((await redeem(c.id)).status).toBe(201);
    const all = await call("GET", "/v1/shared_payment_tokens", { key: lister.testKey });
    expect(all.body.data.map((t: any) => t.id)).toEqual([c.id, b.id, a.id]);
    const ids = async (status: string) =>
      (await call("GET", `/v1/shared_payment_tokens?status=${status}`, { key: lister.testKey })).body.data.map((t: any) => t.id);
    expect(await ids("active")).toEqual([a.id]);
    expect(await ids("revoked")).toEqual([b.id]);
    expect(await ids("redeemed")).toEqual([c.id]);
    expect(await ids("expired")).toEqual([]);
    const page = await call("GET", `/v1/shared_payment_tokens?limit=1&startingAfter=${c.id}`, { key: lister.testKey });
    expect(page.body).toMatchObject({ hasMore: true, data: [{ id: b.id }] });
    expect((await call("GET", "/v1/shared_payment_tokens", { key: payee.testKey })).body.data.map((t: any) => t.id)).not.toContain(a.id);
    expect((await call("GET", "/v1/shared_payment_tokens", { key: lister.liveKey })).body.data).toEqual([]);
    expect((await call("GET", "/v1/shared_payment_tokens?status=used", { key: lister.testKey })).status).toBe(400);
  });
});

describe("never twice", () => {
  let s1: ServerProcess;
  let s2: ServerProcess;
  beforeAll(async () => {
    // One after the other: two cold starts at once can pass the start-up deadline on a loaded machine.
    s1 = await startTestServer(); // FAULT_INJECTION is on in test servers (the crash test below kills s1)
    servers.push(s1);
    s2 = await startTestServer();
    servers.push(s2);
  }, 120_000);

  it("24 concurrent redemptions over two server processes: exactly one payment, one charge", async () => {
    const wallet = await createCustomer(payer.testKey, { amount: 10_000, currency: "usd" });
    const token = await mint({ paymentMethod: wallet.id, maxAmount: 900 });
    const before = await sptPayments(payee.merchantId);
    const attempt = (i: number) =>
      redeem(
        token.id,
        { amount: 900 },
        { base: i % 2 ? s1.url : s2.url, headers: i % 3 ? { "Idempotency-Key": `race-${token.id}-${i}` } : {} },
      );
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => attempt(i)));
    const outcomes = results.map((r) => `${r.status} ${r.body?.error?.details?.reason ?? ""}`.trim());
    expect(
      outcomes.filter((o) => o === "201"),
      outcomes.join(", "),
    ).toHaveLength(1);
    // The others: in use right now (409, answered at once, never queued on a connection) or already redeemed (410).
    expect(
      outcomes.filter((o) => o !== "201" && o !== "409 token_in_use" && o !== "410 token_redeemed"),
      outcomes.join(", "),
    ).toEqual([]);
    const winner = results.find((r) => r.status === 201)!.body;
    for (const loser of results.filter((r) => r.status === 410))
      expect(loser.body.error.details).toMatchObject({ reason: "token_redeemed", paymentIntentId: winner.id });
    // Each busy one retried (same Idempotency-Key: the 409 was not stored) gets the real answer: redeemed, by this payment.
    for (const [i, r] of results.entries()) {
      if (r.status !== 409) continue;
      const retry = await attempt(i);
      expect(retry.status).toBe(410);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      expect(retry.body.error.details).toMatchObject({ reason: "token_redeemed", paymentIntentId: winner.id });
    }
    expect(await sptPayments(payee.merchantId)).toBe(before + 1);
    expect(await railChargesFor(winner.id)).toBe(1);
    expect(await walletBalance(wallet.id)).toBe(9100);
    expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);
  });

  it("a revoke racing redemptions: either the revoke or one redemption wins, never both", async () => {
    const token = await mint();
    const [revoke, ...redeems] = await Promise.all([
      call("POST", `/v1/shared_payment_tokens/${token.id}/revoke`, { key: payer.testKey, base: s1.url }),
      ...Array.from({ length: 6 }, (_, i) => redeem(token.id, {}, { base: i % 2 ? s1.url : s2.url })),
    ]);
    const paid = redeems.filter((r) => r.status === 201);
    expect(redeems.filter((r) => ![201, 409, 410].includes(r.status))).toEqual([]);
    if (revoke.status === 200) expect(paid).toHaveLength(0);
    else {
      expect(revoke.status).toBe(409);
      expect(paid).toHaveLength(1);
    }
    const final = (await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey })).body;
    expect(final.status).toBe(paid.length ? "redeemed" : "revoked");
  });

  it("a redemption that dies after the rail charged is completed by a retry on another process, charged once", async () => {
    const [dying, alive] = [s1, s2]; // the last test of the file: s1 is not needed after it
    const wallet = await createCustomer(payer.testKey, { amount: 2000, currency: "usd" });
    const token = await mint({ paymentMethod: wallet.id });
    const died = await redeem(token.id, { amount: 600 }, { base: dying.url, headers: { "x-test-fault": "after-rail-charge:exit" } }).catch(
      (err: Error) => err,
    );
    expect(died).toBeInstanceOf(Error);
    expect(await waitForExit(dying)).toBe(137);
    // The rail took 600; the service's transaction rolled back: no payment, the token still active.
    expect(await walletBalance(wallet.id)).toBe(1400);
    expect((await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey, base: alive.url })).body.status).toBe(
      "active",
    );

    const retry = await redeem(token.id, { amount: 600 }, { base: alive.url });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body).toMatchObject({ status: CAPTURED_OR_SETTLED, amount: 600, source: "spt" });
    expect(await walletBalance(wallet.id)).toBe(1400); // the rail answered with its first charge: taken once
    expect(await railChargesFor(retry.body.id)).toBe(1);
    expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);
  });
});
