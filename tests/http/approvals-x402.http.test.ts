// Human approval on x402 (docs/approvals.md "x402"): a hosted resource priced $0.50, paid by the stock @x402/fetch
// client from a wallet a spending agent lists, whose approval threshold is $0.30. The payment is answered 402 with
// error approval_pending naming the request (body and Payment-Approval-Request header), fresh `accepts`, nothing
// settled and the authorization's nonce unspent; sent again while it waits, the same request. Approving moves no
// money; the same authorization sent again then settles once (a concurrent pair: one charge), and again is a replay.
// Declined: the same authorization is refused, nothing charged.
import { ExactEvmScheme as ExactEvmClientScheme } from "@x402/evm";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let payer: TestMerchant;
let shop: TestMerchant;
let resource: { id: string };
let agentId: string;
const account = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  [payer, shop] = await Promise.all([createTestMerchant("x402 approval payer"), createTestMerchant("x402 approval shop")]);
  const created = await call("POST", "/v1/paid_resources", {
    key: shop.testKey,
    body: { name: "Report", amount: 50, currency: "usd", content: { report: 1 } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  resource = created.body;
  const agent = await call("POST", "/v1/spending_agents", {
    key: payer.testKey,
    body: {
      name: "x402 agent",
      walletAddresses: [account.address],
      policy: { approvalThreshold: [{ currency: "usd", amount: 30 }], budgets: [{ window: "day", currency: "usd", amount: 10_000 }] },
    },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  agentId = agent.body.id;
});

const url = () => `${baseUrl()}/x402/r/${resource.id}`;

const shopCharges = () =>
  getDb().paymentIntent.count({ where: { merchantId: shop.merchantId, source: "x402", status: { in: ["captured", "settled"] } } });

async function shopBalance(): Promise<number> {
  const res = await call("GET", "/v1/balance", { key: shop.testKey });
  const sum = (list: { currency: string; amount: number }[]) => list.filter((b) => b.currency === "USD").reduce((s, b) => s + b.amount, 0);
  return sum(res.body.pending) + sum(res.body.payable);
}

/** Pays with the stock client, recording the PAYMENT-SIGNATURE it sent: the authorization to send again. */
async function payOnce(): Promise<{ res: Response; signature: string }> {
  const sent: string[] = [];
  const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const signature = request.headers.get("payment-signature");
    if (signature) sent.push(signature);
    return fetch(request);
  }) as typeof fetch;
  const client = new x402Client().register("eip155:84532", new ExactEvmClientScheme(account));
  const res = await wrapFetchWithPayment(recording, client)(url());
  expect(sent).toHaveLength(1);
  return { res, signature: sent[0] };
}

const sendAgain = (signature: string) => fetch(url(), { headers: { "PAYMENT-SIGNATURE": signature } });

const nonceOf = (signature: string): string =>
  JSON.parse(Buffer.from(signature, "base64").toString("utf8")).payload.authorization.nonce.toLowerCase();

/** The 402 of a payment waiting for approval: x402's PaymentRequired (fresh accepts) naming the request; its id. */
async function expectPending(res: Response): Promise<{ id: string; expiresAt: string }> {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(402);
  expect(body).toMatchObject({ x402Version: 1, error: "approval_pending", approvalRequestId: expect.stringMatching(/^apr_/) });
  expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
  expect(res.headers.get("payment-approval-request")).toBe(body.approvalRequestId);
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
  expect(required).toMatchObject({ x402Version: 2, error: "approval_pending", accepts: [{ scheme: "exact", amount: "500000" }] });
  return { id: body.approvalRequestId, expiresAt: body.expiresAt };
}

describe("approvals on x402 (hosted resource, stock @x402/fetch client)", () => {
  it("above the threshold: 402 naming the request, nonce unspent; approved, the same authorization settles once", async () => {
    const [chargesBefore, balanceBefore] = [await shopCharges(), await shopBalance()];
    const { res, signature } = await payOnce();
    const pending = await expectPending(res);
    const nonce = nonceOf(signature);
    expect(await getDb().x402Authorization.findFirst({ where: { nonce } })).toBeNull(); // the authorization is not consumed
    expect((await expectPending(await sendAgain(signature))).id).toBe(pending.id); // sent again while it waits: the same request
    expect(await getDb().approvalRequest.count({ where: { x402Authorization: { endsWith: `:${nonce}` } } })).toBe(1);

    const request = await call("GET", `/v1/approval_requests/${pending.id}`, { key: payer.testKey });
    expect(request.status).toBe(200);
    expect(request.body).toMatchObject({
      status: "pending",
      protocol: "x402",
      sharedPaymentTokenId: null,
      spendingAgentId: agentId,
      merchantId: shop.merchantId,
      amount: 50,
      paymentIntentId: null,
      paidResourceId: resource.id,
      x402Authorization: `eip155:84532:${"0x036CbD53842c5426634e7929541eC2318f3dCF7e".toLowerCase()}:${account.address.toLowerCase()}:${nonce}`,
      expiresAt: pending.expiresAt,
    });
    // The request expires no later than the authorization can settle (its validBefore).
    const validBefore = Number(JSON.parse(Buffer.from(signature, "base64").toString("utf8")).payload.authorization.validBefore);
    expect(Date.parse(pending.expiresAt)).toBeLessThanOrEqual(validBefore * 1000);
    expect(await getDb().checkout.findUniqueOrThrow({ where: { id: request.body.checkoutId } })).toMatchObject({
      status: "pending_approval",
    });
    expect(await shopCharges()).toBe(chargesBefore);

    const approved = await call("POST", `/v1/approval_requests/${pending.id}/approve`, { key: payer.testKey });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", paymentIntentId: null }); // approving moves no money on x402
    expect(await shopCharges()).toBe(chargesBefore);

    // The same authorization, sent twice at once: one settlement, both get the content.
    const pair = await Promise.all([sendAgain(signature), sendAgain(signature)]);
    for (const paid of pair) {
      expect(paid.status, await paid.clone().text()).toBe(200);
      expect(await paid.json()).toEqual({ report: 1 });
    }
    expect(await shopCharges()).toBe(chargesBefore + 1);
    const after = await call("GET", `/v1/approval_requests/${pending.id}`, { key: payer.testKey });
    expect(after.body).toMatchObject({ status: "approved", paymentIntentId: expect.stringMatching(/^pi_/) });
    const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: after.body.paymentIntentId } });
    expect(pi).toMatchObject({ source: "x402", amount: 50, status: expect.stringMatching(/^(captured|settled)$/) });
    expect(await getDb().checkout.findUniqueOrThrow({ where: { id: after.body.checkoutId } })).toMatchObject({ status: "complete" });
    const balancePaid = await shopBalance();
    expect(balancePaid).toBeGreaterThan(balanceBefore);

    // Sent again: the replay of that payment, never a second charge.
    const again = await sendAgain(signature);
    expect(again.status).toBe(200);
    expect(await shopCharges()).toBe(chargesBefore + 1);
    expect(await shopBalance()).toBe(balancePaid);
    // Approving again changes nothing.
    const twice = await call("POST", `/v1/approval_requests/${pending.id}/approve`, { key: payer.testKey });
    expect(twice.status).toBe(200);
    expect(await shopCharges()).toBe(chargesBefore + 1);
  });

  it("the facilitator's /x402/settle: approval_pending naming the request; approved, the same payload settles once", async () => {
    const before = await shopCharges();
    const unpaid = await fetch(url());
    const required = JSON.parse(Buffer.from(unpaid.headers.get("payment-required")!, "base64").toString("utf8"));
    const client = new x402Client().register("eip155:84532", new ExactEvmClientScheme(account));
    const paymentPayload = await client.createPaymentPayload(required);
    const body = { x402Version: 2, paymentPayload, paymentRequirements: paymentPayload.accepted };
    const settle = () => call("POST", "/x402/settle", { key: shop.testKey, body });

    const first = await settle();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      success: false,
      errorReason: "approval_pending",
      extensions: { approvalRequestId: expect.stringMatching(/^apr_/) },
    });
    const requestId = first.body.extensions.approvalRequestId;
    expect((await settle()).body.extensions.approvalRequestId).toBe(requestId);
    const request = await call("GET", `/v1/approval_requests/${requestId}`, { key: payer.testKey });
    expect(request.body).toMatchObject({ status: "pending", protocol: "x402", paidResourceId: null, amount: 50 });
    expect(await shopCharges()).toBe(before);

    expect((await call("POST", `/v1/approval_requests/${requestId}/approve`, { key: payer.testKey })).status).toBe(200);
    const paid = await settle();
    expect(paid.body).toMatchObject({ success: true, transaction: expect.stringMatching(/^pi_/) });
    const again = await settle();
    expect(again.body).toMatchObject({ success: true, transaction: paid.body.transaction, extensions: { replayed: true } });
    expect(await shopCharges()).toBe(before + 1);
    const after = await call("GET", `/v1/approval_requests/${requestId}`, { key: payer.testKey });
    expect(after.body.paymentIntentId).toBe(paid.body.transaction);
  });

  it("declined: the same authorization is refused with a reason, nothing charged", async () => {
    const before = await shopCharges();
    const { res, signature } = await payOnce();
    const pending = await expectPending(res);
    const declined = await call("POST", `/v1/approval_requests/${pending.id}/decline`, { key: payer.testKey });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body).toMatchObject({ status: "declined", paymentIntentId: null });
    expect(await getDb().checkout.findUniqueOrThrow({ where: { id: declined.body.checkoutId } })).toMatchObject({ status: "canceled" });

    const refused = await sendAgain(signature);
    const body = await refused.json();
    expect(refused.status).toBe(402);
    expect(body).toMatchObject({ error: "approval_declined", accepts: [expect.objectContaining({ scheme: "exact" })] });
    expect(refused.headers.get("payment-approval-request")).toBeNull();
    expect(await getDb().x402Authorization.findFirst({ where: { nonce: nonceOf(signature) } })).toBeNull();
    expect(await shopCharges()).toBe(before);
  });
});
