// Human approval on MPP (docs/approvals.md "MPP"): a hosted resource priced $0.50, paid by the real mppx client with a
// shared payment token of a spending agent whose approval threshold is $0.30. The credential is answered 402
// payment_required naming the pending request (body and Payment-Approval-Request header), nothing charged; sent
// again while it waits, the same answer. Approved by the payer's API key, the same credential sent again gets the
// content of the payment the approval captured, charged once (and again: the same answer, no second charge); a
// fresh credential with that token is refused. Declined: the same credential gets no content, nothing charged.
import { Mppx } from "mppx/client";
import { serviceClientMethod } from "agent-payments-sdk/mpp";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

// The shared server (tests/global-setup.ts): its limits are high enough for many calls of one key.
const server = { url: baseUrl() };
let payer: TestMerchant;
let shop: TestMerchant;
let resource: { id: string };
let agentId: string;

beforeAll(async () => {
  [payer, shop] = await Promise.all([createTestMerchant("mpp approval payer"), createTestMerchant("mpp approval shop")]);
  const created = await api("POST", "/v1/paid_resources", shop.testKey, {
    name: "Report",
    amount: 50,
    currency: "usd",
    content: { report: 1 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  resource = created.body;
  const agent = await api("POST", "/v1/spending_agents", payer.testKey, {
    name: "MPP agent",
    policy: { approvalThreshold: [{ currency: "usd", amount: 30 }], budgets: [{ window: "day", currency: "usd", amount: 10_000 }] },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  agentId = agent.body.id;
});

function api(method: string, path: string, key: string, body?: unknown) {
  return call(method, path, { key, base: server.url, body });
}

const shopCharges = () => getDb().paymentIntent.count({ where: { merchantId: shop.merchantId, status: { in: ["captured", "settled"] } } });

async function mintSpt() {
  const res = await api("POST", "/v1/shared_payment_tokens", payer.testKey, {
    paymentMethod: "pm_card_visa",
    maxAmount: 1000,
    currency: "usd",
    merchantId: shop.merchantId,
    spendingAgentId: agentId,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** A credential of the real mppx client for a fresh challenge of the resource, paid with `token`. */
async function credentialFor(token: string): Promise<string> {
  const first = await fetch(`${server.url}/mpp/r/${resource.id}`);
  expect(first.status).toBe(402);
  return Mppx.create({ methods: [serviceClientMethod({ token: () => token })], polyfill: false }).createCredential(first);
}

const pay = (credential: string) => fetch(`${server.url}/mpp/r/${resource.id}`, { headers: { Authorization: credential } });

/** The 402 of a charge waiting for approval: the problem and header name the request; its id. */
async function expectPending(res: Response): Promise<string> {
  const problem = await res.json();
  expect(res.status, JSON.stringify(problem)).toBe(402);
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  expect(problem).toMatchObject({ type: "https://paymentauth.org/problems/payment-required", reason: "approval_pending" });
  expect(problem.approvalRequestId).toMatch(/^apr_/);
  expect(res.headers.get("payment-approval-request")).toBe(problem.approvalRequestId);
  expect(res.headers.get("www-authenticate")).toMatch(/^Payment /);
  return problem.approvalRequestId;
}

describe("approvals on MPP", () => {
  it("above the threshold: 402 naming the request, nothing charged; approved, the same credential gets the content, charged once", async () => {
    const before = await shopCharges();
    const token = await mintSpt();
    const credential = await credentialFor(token);
    const requestId = await expectPending(await pay(credential));
    expect(await shopCharges()).toBe(before);
    expect(await expectPending(await pay(credential))).toBe(requestId); // sent again while it waits: the same request
    const request = await api("GET", `/v1/approval_requests/${requestId}`, payer.testKey);
    expect(request.body).toMatchObject({
      status: "pending",
      protocol: "mpp",
      sharedPaymentTokenId: token,
      amount: 50,
      spendingAgentId: agentId,
    });
    expect(await shopCharges()).toBe(before);

    const approved = await api("POST", `/v1/approval_requests/${requestId}/approve`, payer.testKey);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", paymentIntentId: expect.stringMatching(/^pi_/) });
    expect(await shopCharges()).toBe(before + 1);

    const paid = await pay(credential);
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(await paid.json()).toEqual({ report: 1 });
    expect(paid.headers.get("payment-receipt")).toBeTruthy();
    const again = await pay(credential);
    expect(again.status).toBe(200);
    expect(await shopCharges()).toBe(before + 1); // the approval's capture was the payment: never a second charge
    const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: approved.body.paymentIntentId } });
    expect(pi).toMatchObject({ source: "mpp", amount: 50, status: expect.stringMatching(/^(captured|settled)$/) });

    // A fresh credential with the same token: the token is spent.
    const fresh = await pay(await credentialFor(token));
    expect(fresh.status).toBe(402);
    expect((await fresh.json()).reason).toBe("token_redeemed");
    expect(await shopCharges()).toBe(before + 1);
  });

  it("declined: the same credential gets no content, nothing charged", async () => {
    const before = await shopCharges();
    const credential = await credentialFor(await mintSpt());
    const requestId = await expectPending(await pay(credential));
    const declined = await api("POST", `/v1/approval_requests/${requestId}/decline`, payer.testKey);
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    const after = await pay(credential);
    expect(after.status).toBe(402);
    expect((await after.json()).reason).toBe("challenge_used");
    expect(await shopCharges()).toBe(before);
  });
});
