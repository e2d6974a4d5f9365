// Human approval on the merchant's own paths (docs/approvals.md "REST redemption" and "POST /mpp/verify"): a
// spending agent with a $0.30 approval threshold; its shared payment token charged $0.50.
// - POST /v1/shared_payment_tokens/:id/redeem answers 402 PAYMENT_DECLINED approval_pending naming the request
//   (its checkout parked, nothing charged); the same Idempotency-Key answers the same 402, before and after the
//   decision (the first answer, as Stripe replays); a fresh key meanwhile is 409 naming the request; approved, the
//   approval's capture is the redemption (one charge) and a fresh key is 410 token_redeemed naming that payment.
//   Declined: nothing charged, and the token may try again (a new request). Concurrent redemptions open one request.
//   While it waits the token pays nothing else, not even a charge below the threshold (409 naming the request).
// - POST /mpp/verify with a credential of the merchant's own mppx/server (the real mppx client): the same 402, the
//   same credential again while it waits the same answer; approved, the same credential answers the approval's
//   payment as a replay (never a second charge); a fresh credential with the token is refused (token_redeemed).
//   Through the SDK's serviceServerMethod, the merchant's mppx answers the held charge 402 with the approval
//   request's id in its problem's details (the payer follows it), and the approved credential is paid.
import { randomUUID } from "node:crypto";
import { Receipt } from "mppx";
import { Mppx as ClientMppx } from "mppx/client";
import { Mppx as ServerMppx } from "mppx/server";
import { ServiceClient } from "agent-payments-sdk";
import { serviceClientMethod, serviceServerMethod } from "agent-payments-sdk/mpp";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let payer: TestMerchant;
let shop: TestMerchant;
let agentId: string;

beforeAll(async () => {
  [payer, shop] = await Promise.all([createTestMerchant("rest approval payer"), createTestMerchant("rest approval shop")]);
  const agent = await call("POST", "/v1/spending_agents", {
    key: payer.testKey,
    body: {
      name: "REST agent",
      policy: { approvalThreshold: [{ currency: "usd", amount: 30 }], budgets: [{ window: "day", currency: "usd", amount: 10_000 }] },
    },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  agentId = agent.body.id;
});

const shopCharges = () => getDb().paymentIntent.count({ where: { merchantId: shop.merchantId, status: { in: ["captured", "settled"] } } });

async function mintSpt(): Promise<string> {
  const res = await call("POST", "/v1/shared_payment_tokens", {
    key: payer.testKey,
    body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", merchantId: shop.merchantId, spendingAgentId: agentId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const redeem = (token: string, key: string = randomUUID(), amount = 50) =>
  call("POST", `/v1/shared_payment_tokens/${token}/redeem`, {
    key: shop.testKey,
    body: { amount, currency: "usd" },
    headers: { "Idempotency-Key": key },
  });

const decide = (id: string, decision: "approve" | "decline") =>
  call("POST", `/v1/approval_requests/${id}/${decision}`, { key: payer.testKey });

/** The 402 of a charge waiting for the payer: its request's id. */
function expectPending(res: { status: number; body: any }): string {
  expect(res.status, JSON.stringify(res.body)).toBe(402);
  expect(res.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "approval_pending" } });
  expect(res.body.error.details.approvalRequestId).toMatch(/^apr_/);
  expect(Date.parse(res.body.error.details.expiresAt)).toBeGreaterThan(Date.now());
  return res.body.error.details.approvalRequestId;
}

describe("POST /v1/shared_payment_tokens/:id/redeem above the approval threshold", () => {
  it("waits (402 approval_pending), replays its first answer, and the approval's capture is the one charge", async () => {
    const before = await shopCharges();
    const token = await mintSpt();
    const key = randomUUID();
    const first = await redeem(token, key);
    const requestId = expectPending(first);

    const request = await call("GET", `/v1/approval_requests/${requestId}`, { key: payer.testKey });
    expect(request.body).toMatchObject({
      status: "pending",
      protocol: "spt",
      sharedPaymentTokenId: token,
      amount: 50,
      merchantId: shop.merchantId,
    });
    const checkout = await getDb().checkout.findUniqueOrThrow({ where: { id: request.body.checkoutId } });
    expect(checkout.status).toBe("pending_approval");

    // The same key: the same answer, replayed. A fresh key: the token already waits, 409 naming the request.
    const replay = await redeem(token, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const fresh = await redeem(token);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(409);
    expect(fresh.body.error.details).toMatchObject({ reason: "approval_pending", approvalRequestId: requestId });
    expect(await shopCharges()).toBe(before);

    const approved = await decide(requestId, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.paymentIntentId).toMatch(/^pi_/);
    expect(await shopCharges()).toBe(before + 1);
    const pi = await call("GET", `/v1/payment_intents/${approved.body.paymentIntentId}`, { key: shop.testKey });
    expect(pi.body).toMatchObject({ amount: 50, source: "spt" });

    // After approval: the same key still answers its first answer (Stripe-like); a fresh key finds the token redeemed.
    const later = await redeem(token, key);
    expect(later.body).toEqual(first.body);
    const redeemed = await redeem(token);
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(410);
    expect(redeemed.body.error.details).toMatchObject({ reason: "token_redeemed", paymentIntentId: approved.body.paymentIntentId });
    expect(await shopCharges()).toBe(before + 1);
  });

  it("a token whose charge waits pays nothing else meanwhile, even below the threshold: 409 naming the request; the approval is the one charge", async () => {
    const before = await shopCharges();
    const token = await mintSpt();
    const requestId = expectPending(await redeem(token));
    // $0.20 needs no approval (threshold $0.30): were the token free, it would be spent here, and the request the
    // payer then approves could never be paid.
    const smaller = await redeem(token, randomUUID(), 20);
    expect(smaller.status, JSON.stringify(smaller.body)).toBe(409);
    expect(smaller.body.error).toMatchObject({ code: "CONFLICT", details: { reason: "approval_pending", approvalRequestId: requestId } });
    expect(Date.parse(smaller.body.error.details.expiresAt)).toBeGreaterThan(Date.now());
    expect(await shopCharges()).toBe(before);
    const held = await call("GET", `/v1/shared_payment_tokens/${token}`, { key: payer.testKey });
    expect(held.body.status).toBe("active");

    const approved = await decide(requestId, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", paymentIntentId: expect.stringMatching(/^pi_/) });
    const pi = await call("GET", `/v1/payment_intents/${approved.body.paymentIntentId}`, { key: shop.testKey });
    expect(pi.body.amount).toBe(50);
    expect(await shopCharges()).toBe(before + 1);
  });

  it("declined: nothing charged, the checkout canceled; the token may try again and waits for a new approval", async () => {
    const before = await shopCharges();
    const token = await mintSpt();
    const requestId = expectPending(await redeem(token));
    const declined = await decide(requestId, "decline");
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.status).toBe("declined");
    expect((await getDb().checkout.findUniqueOrThrow({ where: { id: declined.body.checkoutId } })).status).toBe("canceled");
    const again = expectPending(await redeem(token));
    expect(again).not.toBe(requestId);
    expect(await shopCharges()).toBe(before);
    expect((await decide(again, "decline")).status).toBe(200);
    // Below the threshold the same token pays at once.
    const small = await redeem(token, randomUUID(), 20);
    expect(small.status, JSON.stringify(small.body)).toBe(201);
    expect(await shopCharges()).toBe(before + 1);
  });

  it("concurrent redemptions of one token open one request; nothing is charged", async () => {
    const before = await shopCharges();
    const token = await mintSpt();
    const answers = await Promise.all(Array.from({ length: 6 }, () => redeem(token)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 402)).toHaveLength(1);
    expect(
      statuses.every((s) => s === 402 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true); // token_in_use or approval_pending
    expect(await getDb().approvalRequest.count({ where: { sharedPaymentTokenId: token } })).toBe(1);
    expect(await shopCharges()).toBe(before);
  });
});

describe("POST /mpp/verify above the approval threshold", () => {
  const server = () =>
    ServerMppx.create({
      methods: [serviceServerMethod({ client: new ServiceClient({ baseUrl: baseUrl(), apiKey: shop.testKey, maxRetries: 0 }) })],
      secretKey: "rest-approval-shop-secret-of-at-least-32-bytes",
      realm: "shop.test",
    });

  /** A challenge of the merchant's own mppx/server for $0.50, answered by the real mppx client with `token`. */
  async function credentialFor(token: string): Promise<string> {
    const result = await server().charge({ amount: "50", currency: "usd", recipient: shop.merchantId, description: "Report" })(
      new Request("http://shop.test/report"),
    );
    if (result.status !== 402) throw new Error("the merchant's mppx/server answered no challenge");
    return ClientMppx.create({ methods: [serviceClientMethod({ token: () => token })], polyfill: false }).createCredential(
      result.challenge,
    );
  }

  const verify = (credential: string) => call("POST", "/mpp/verify", { key: shop.testKey, body: { credential } });

  it("waits (402 approval_pending); the same credential gets the same answer, then after approval the approval's payment as a replay", async () => {
    const before = await shopCharges();
    const token = await mintSpt();
    const credential = await credentialFor(token);
    const requestId = expectPending(await verify(credential));
    const request = await call("GET", `/v1/approval_requests/${requestId}`, { key: payer.testKey });
    expect(request.body).toMatchObject({ status: "pending", protocol: "mpp", sharedPaymentTokenId: token });
    expect(expectPending(await verify(credential))).toBe(requestId);
    expect(await shopCharges()).toBe(before);

    const approved = await decide(requestId, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await shopCharges()).toBe(before + 1);

    for (const replay of [await verify(credential), await verify(credential)]) {
      expect(replay.status, JSON.stringify(replay.body)).toBe(200);
      expect(replay.body).toMatchObject({
        object: "mpp_verification",
        replayed: true,
        receipt: { method: "service", reference: approved.body.paymentIntentId, status: "success" },
        paymentIntent: { id: approved.body.paymentIntentId, amount: 50, source: "mpp" },
      });
    }
    const fresh = await verify(await credentialFor(token));
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(410);
    expect(fresh.body.error.details.reason).toBe("token_redeemed");
    expect(await shopCharges()).toBe(before + 1);
  });

  it("through serviceServerMethod (the merchant's mppx/server): the 402 names the approval request, which the payer can follow", async () => {
    const before = await shopCharges();
    const token = await mintSpt();
    const charge = (authorization?: string) =>
      server().charge({ amount: "50", currency: "usd", recipient: shop.merchantId, description: "Report" })(
        new Request("http://shop.test/report", authorization ? { headers: { Authorization: authorization } } : undefined),
      );
    const unpaid = await charge();
    if (unpaid.status !== 402) throw new Error("the merchant's mppx/server answered no challenge");
    const credential = await ClientMppx.create({
      methods: [serviceClientMethod({ token: () => token })],
      polyfill: false,
    }).createCredential(unpaid.challenge);

    const held = await charge(credential);
    if (held.status !== 402) throw new Error("a charge above the threshold was not held");
    expect(held.challenge.status).toBe(402);
    const problem = await held.challenge.json();
    expect(problem).toMatchObject({
      type: "https://paymentauth.org/problems/verification-failed",
      details: { reason: "approval_pending", approvalRequestId: expect.stringMatching(/^apr_/) },
    });
    expect(Date.parse(problem.details.expiresAt)).toBeGreaterThan(Date.now());
    // The id is the payer's request for this very token: it can poll it, and approve it.
    const request = await call("GET", `/v1/approval_requests/${problem.details.approvalRequestId}`, { key: payer.testKey });
    expect(request.body).toMatchObject({ status: "pending", protocol: "mpp", sharedPaymentTokenId: token, amount: 50 });
    expect(await shopCharges()).toBe(before);

    const approved = await decide(problem.details.approvalRequestId, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const paid = await charge(credential);
    if (paid.status !== 200) throw new Error(`the approved credential was not paid: ${await paid.challenge.text()}`);
    const receipt = paid.withReceipt(Response.json({ report: "ok" })).headers.get("payment-receipt");
    expect(receipt).toBeTruthy();
    expect(Receipt.deserialize(receipt!)).toMatchObject({
      method: "service",
      reference: approved.body.paymentIntentId,
      status: "success",
    });
    expect(await shopCharges()).toBe(before + 1);
  });

  it("declined: the same credential is refused (challenge_used), nothing charged", async () => {
    const before = await shopCharges();
    const credential = await credentialFor(await mintSpt());
    const requestId = expectPending(await verify(credential));
    expect((await decide(requestId, "decline")).status).toBe(200);
    const after = await verify(credential);
    expect(after.status, JSON.stringify(after.body)).toBe(409);
    expect(after.body.error.details.reason).toBe("challenge_used");
    expect(await shopCharges()).toBe(before);
  });
});
