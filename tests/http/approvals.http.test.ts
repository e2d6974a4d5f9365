// Human approval of a spending agent's charge above its policy's threshold (docs/approvals.md), on a real server
// with a real SMTP server: a $0.30 threshold; an ACP session paying $0.50 with the agent's shared payment token
// at ACP 2026-04-17 (every answer validated against its published schema) waits in pending_approval (the checkout
// too; 2026-01-16, which has no such status, shows in_progress), the payer's owner gets a mail with a single-use link, and:
// approved by the API the order is paid once (a second approval changes nothing); declined or expired, nothing is
// charged and the session is canceled; the mailed link works once (its page's GET never acts); two concurrent
// approvals capture once. Revoking the waiting token declines its request (a revoke racing approvals: one wins); the
// token's other ACP charges meanwhile are 409 with no Retry-After.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectValid } from "../helpers/acp-edges";
import { dashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { startMailTestServer, type MailTestServer } from "../helpers/mail-server";
import type { TestMerchant } from "../helpers/merchants";
import { tick } from "../helpers/payments";
import { linksOf } from "../helpers/smtp";

let mail: MailTestServer;
let payer: { key: string; email: string };
let shop: TestMerchant;
let item: string;
let agentId: string;

beforeAll(async () => {
  mail = await startMailTestServer("approvals");
  const owner = await dashboardMerchant("Approval payer", { base: mail.url });
  payer = { key: owner.key, email: (owner.session as unknown as { email: string }).email };
  shop = await mail.database.createMerchant("Approval shop");
  item = (await api("POST", "/v1/products", shop.testKey, { name: "Report", unitAmount: 50, currency: "usd" })).body.id;
  const agent = await api("POST", "/v1/spending_agents", payer.key, {
    name: "Shopping agent",
    policy: { approvalThreshold: [{ currency: "usd", amount: 30 }], budgets: [{ window: "day", currency: "usd", amount: 10_000 }] },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  expect(agent.body.policy.approvalExpiresIn).toBe(86_400); // the default: a day
  agentId = agent.body.id;
}, 180_000);
afterAll(() => mail?.stop());

function api(method: string, path: string, key: string, body?: unknown) {
  return call(method, path, { key, base: mail.url, body });
}

const db = () => mail.database.db;
const shopCharges = () => db().paymentIntent.count({ where: { merchantId: shop.merchantId, status: { in: ["captured", "settled"] } } });

const ACP_VERSION = "2026-04-17";

/** An /acp call of the shop at `version`, its answer validated against that version's published schema. */
async function acp(method: string, path: string, body?: unknown, version = ACP_VERSION) {
  const headers: Record<string, string> = { "API-Version": version };
  if (method === "POST") headers["Idempotency-Key"] = randomUUID();
  const res = await call(method, path, { key: shop.testKey, base: mail.url, body, headers });
  expect(res.status, `${method} ${path}: never a 500 (${JSON.stringify(res.body)})`).toBeLessThan(500);
  if (res.status >= 400) expectValid("agentic_checkout", version, "Error", res.body);
  else expectValid("agentic_checkout", version, res.body.status === "completed" ? "CheckoutSessionWithOrder" : "CheckoutSession", res.body);
  return res;
}

const completeBody = (token: string) => ({
  buyer: { email: "agent-buyer@example.com", first_name: "Ada" },
  payment_data: { handler_id: "shared_payment_token", instrument: { type: "card", credential: { type: "spt", token } } },
});

/** An ACP session of the shop for one $0.50 item, completed with a token of the agent: it waits for approval. */
async function pendingSession() {
  const token = await api("POST", "/v1/shared_payment_tokens", payer.key, {
    paymentMethod: "pm_card_visa",
    maxAmount: 1000,
    currency: "usd",
    merchantId: shop.merchantId,
    spendingAgentId: agentId,
  });
  expect(token.status, JSON.stringify(token.body)).toBe(201);
  const session = await acp("POST", "/acp/checkout_sessions", {
    line_items: [{ id: item }],
    currency: "usd",
    capabilities: { payment: { handlers: [{ id: "card", name: "dev.acp.tokenized.card" }] } },
  });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  const since = Date.now();
  const done = await acp("POST", `/acp/checkout_sessions/${session.body.id}/complete`, completeBody(token.body.id));
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body.status).toBe("pending_approval");
  const request = await db().approvalRequest.findFirstOrThrow({ where: { acpCheckoutSessionId: session.body.id } });
  return { sessionId: session.body.id as string, tokenId: token.body.id as string, requestId: request.id, since };
}

const session = (id: string) => acp("GET", `/acp/checkout_sessions/${id}`);

describe("approval requests", () => {
  it("above the threshold: pending_approval, then approved once by the API; a second approval changes nothing", async () => {
    const before = await shopCharges();
    const { sessionId, requestId } = await pendingSession();
    expect((await session(sessionId)).body.status).toBe("pending_approval");
    // An agent at 2026-01-16, whose statuses have no pending_approval, sees the payment under way.
    expect((await acp("GET", `/acp/checkout_sessions/${sessionId}`, undefined, "2026-01-16")).body.status).toBe("in_progress");
    expect(await shopCharges()).toBe(before); // nothing charged while it waits

    const listed = await api("GET", "/v1/approval_requests?status=pending", payer.key);
    expect(listed.status).toBe(200);
    const pending = listed.body.data.find((r: { id: string }) => r.id === requestId);
    expect(pending).toMatchObject({
      object: "approval_request",
      status: "pending",
      spendingAgentId: agentId,
      merchantId: shop.merchantId,
      protocol: "acp",
      acpCheckoutSessionId: sessionId,
      amount: 50,
      currency: "USD",
      approvalThreshold: 30,
      paymentIntentId: null,
    });
    const checkout = await api("GET", `/v1/checkouts/${pending.checkoutId}`, shop.testKey);
    expect(checkout.body.status).toBe("pending_approval");
    // The shop cannot see the payer's request; the payer sees it.
    expect((await api("GET", `/v1/approval_requests/${requestId}`, shop.testKey)).status).toBe(404);
    expect((await api("GET", `/v1/approval_requests/${requestId}`, payer.key)).body.status).toBe("pending");

    const approved = await api("POST", `/v1/approval_requests/${requestId}/approve`, payer.key);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", decidedVia: "api", paymentIntentId: expect.stringMatching(/^pi_/) });
    expect(await shopCharges()).toBe(before + 1);
    const paid = await session(sessionId);
    expect(paid.body.status).toBe("completed");
    expect(paid.body.order.id).toBeTruthy();

    const again = await api("POST", `/v1/approval_requests/${requestId}/approve`, payer.key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(approved.body);
    expect((await api("GET", `/v1/approval_requests/${requestId}`, payer.key)).body).toEqual(approved.body);
    expect(await shopCharges()).toBe(before + 1);
    // Declining an approved request is refused; nothing changes.
    expect((await api("POST", `/v1/approval_requests/${requestId}/decline`, payer.key)).status).toBe(409);

    const events = await api("GET", "/v1/events?limit=100", payer.key);
    const types = events.body.data.filter((e: any) => e.data.object.id === requestId).map((e: any) => e.type);
    expect(types.sort()).toEqual(["approval_request.approved", "approval_request.created"]);
    // The list showed the request as its event did when it was made.
    const created = events.body.data.find((e: any) => e.type === "approval_request.created" && e.data.object.id === requestId);
    expect(pending).toEqual(created.data.object);
  });

  it("declined: nothing charged, the checkout and the session canceled", async () => {
    const before = await shopCharges();
    const { sessionId, requestId } = await pendingSession();
    const declined = await api("POST", `/v1/approval_requests/${requestId}/decline`, payer.key);
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: "declined", paymentIntentId: null });
    expect((await session(sessionId)).body.status).toBe("canceled");
    expect((await api("GET", `/v1/checkouts/${declined.body.checkoutId}`, shop.testKey)).body.status).toBe("canceled");
    expect((await api("POST", `/v1/approval_requests/${requestId}/approve`, payer.key)).status).toBe(409);
    expect(await shopCharges()).toBe(before);
  });

  it("expired: the tick ends it with nothing charged; approving afterwards is refused", async () => {
    const before = await shopCharges();
    const { sessionId, requestId } = await pendingSession();
    await db().approvalRequest.update({ where: { id: requestId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // Past its deadline but not yet swept: approving is refused already.
    expect((await api("POST", `/v1/approval_requests/${requestId}/approve`, payer.key)).status).toBe(409);
    await tick(mail.url);
    const expired = await api("GET", `/v1/approval_requests/${requestId}`, payer.key);
    expect(expired.body).toMatchObject({ status: "expired", decidedVia: "expiry", paymentIntentId: null });
    expect((await api("GET", `/v1/checkouts/${expired.body.checkoutId}`, shop.testKey)).body.status).toBe("expired");
    expect((await session(sessionId)).body.status).toBe("canceled");
    expect(await shopCharges()).toBe(before);
  });

  it("the mailed link: its page does not act, its POST approves once, a second use is refused", async () => {
    const before = await shopCharges();
    const { sessionId, requestId, since } = await pendingSession();
    // This request's mail: an earlier test's may still arrive after `since` (the outbox sends after the commit), and
    // its link is used already. The mail names the request's deadline, to the millisecond.
    const { expiresAt } = (await api("GET", `/v1/approval_requests/${requestId}`, payer.key)).body;
    const received = await mail.smtp.waitForMail({ to: payer.email, kind: "approval_request", since, containing: expiresAt }, 15_000);
    expect(received.text).toContain("$0.50");
    const link = linksOf(received.text, received.html).find((l) => l.includes("/approvals/"));
    expect(link).toBeTruthy();
    expect(new URL(link!).origin).toBe(mail.url);

    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Approve");
    expect((await api("GET", `/v1/approval_requests/${requestId}`, payer.key)).body.status).toBe("pending"); // a GET never acts

    const decide = () =>
      fetch(`${link}/decide`, { method: "POST", body: new URLSearchParams({ decision: "approve" }), redirect: "manual" });
    const first = await decide();
    expect(first.status).toBe(303);
    const got = await api("GET", `/v1/approval_requests/${requestId}`, payer.key);
    expect(got.body).toMatchObject({ status: "approved", decidedVia: "email_link" });
    expect((await session(sessionId)).body.status).toBe("completed");
    expect((await decide()).status).toBe(410);
    expect(await shopCharges()).toBe(before + 1);
  });

  it("two concurrent approvals capture once", async () => {
    const before = await shopCharges();
    const { requestId } = await pendingSession();
    const answers = await Promise.all([1, 2, 3].map(() => api("POST", `/v1/approval_requests/${requestId}/approve`, payer.key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.paymentIntentId)).size).toBe(1);
    expect(await shopCharges()).toBe(before + 1);
  });

  it("completing the waiting session again is refused (409), nothing charged; its token cannot be redeemed elsewhere meanwhile", async () => {
    const before = await shopCharges();
    const { sessionId, tokenId, requestId } = await pendingSession();
    const again = await acp("POST", `/acp/checkout_sessions/${sessionId}/complete`, completeBody(tokenId));
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    // The REST redemption waits for approval too, but the token already waits for one: 409 naming it (docs/approvals.md).
    const rest = await api("POST", `/v1/shared_payment_tokens/${tokenId}/redeem`, shop.testKey, { amount: 40, currency: "usd" });
    expect(rest.status, JSON.stringify(rest.body)).toBe(409);
    expect(rest.body.error.details).toMatchObject({ reason: "approval_pending", approvalRequestId: requestId });
    expect(await shopCharges()).toBe(before);
  });

  it("another ACP session paid by the waiting token: 409 conflict with no Retry-After (waiting a second will not help)", async () => {
    const before = await shopCharges();
    const { tokenId } = await pendingSession();
    const other = await acp("POST", "/acp/checkout_sessions", {
      line_items: [{ id: item }],
      currency: "usd",
      capabilities: { payment: { handlers: [{ id: "card", name: "dev.acp.tokenized.card" }] } },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const refused = await acp("POST", `/acp/checkout_sessions/${other.body.id}/complete`, completeBody(tokenId));
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body).toMatchObject({ type: "invalid_request", code: "conflict" });
    expect(refused.body.message).toContain("approval");
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(await shopCharges()).toBe(before);
  });

  it("revoking the waiting token declines its request in the same transaction (event, session canceled); approving then is 409, nothing charged", async () => {
    const before = await shopCharges();
    const { sessionId, tokenId, requestId } = await pendingSession();
    const revoked = await api("POST", `/v1/shared_payment_tokens/${tokenId}/revoke`, payer.key);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    const request = await api("GET", `/v1/approval_requests/${requestId}`, payer.key);
    expect(request.body).toMatchObject({ status: "declined", decidedVia: "api", paymentIntentId: null });
    expect((await session(sessionId)).body.status).toBe("canceled");
    expect((await api("GET", `/v1/checkouts/${request.body.checkoutId}`, shop.testKey)).body.status).toBe("canceled");
    const events = await api("GET", "/v1/events?limit=100", payer.key);
    const types = events.body.data.filter((e: any) => e.data.object.id === requestId).map((e: any) => e.type);
    expect(types.sort()).toEqual(["approval_request.created", "approval_request.declined"]);

    const approve = await api("POST", `/v1/approval_requests/${requestId}/approve`, payer.key);
    expect(approve.status, JSON.stringify(approve.body)).toBe(409);
    expect(approve.body.error.details).toMatchObject({ reason: "approval_declined", status: "declined" });
    // Revoking again is the same answer, and declines nothing more.
    expect((await api("POST", `/v1/shared_payment_tokens/${tokenId}/revoke`, payer.key)).body.status).toBe("revoked");
    expect(await shopCharges()).toBe(before);
  });

  it("a revoke racing approvals: either the approval pays once (the revoke is 409) or the revoke declines (the approvals are 409), never both", async () => {
    const before = await shopCharges();
    const { tokenId, requestId } = await pendingSession();
    const [revoke, ...approvals] = await Promise.all([
      api("POST", `/v1/shared_payment_tokens/${tokenId}/revoke`, payer.key),
      ...[1, 2].map(() => api("POST", `/v1/approval_requests/${requestId}/approve`, payer.key)),
    ]);
    const final = (await api("GET", `/v1/approval_requests/${requestId}`, payer.key)).body;
    const statuses = [revoke, ...approvals].map((r) => `${r.status} ${r.body?.error?.details?.reason ?? ""}`.trim()).join(", ");
    if (revoke.status === 200) {
      expect(final.status, statuses).toBe("declined");
      for (const a of approvals) expect([409], statuses).toContain(a.status); // approval_declined, or token_in_use at the race
      expect(await shopCharges()).toBe(before);
    } else {
      expect(revoke.body.error.details, statuses).toMatchObject({ reason: "token_redeemed" });
      expect(final.status, statuses).toBe("approved");
      expect(await shopCharges()).toBe(before + 1);
    }
  });
});
