// Human approval on A2A/AP2 (docs/approvals.md "A2A and AP2", docs/a2a.md) with the REAL @a2a-js/sdk client: the
// buyer's spending agent has a $0.30 approval threshold and its shared payment token pays a $0.50 cart. The AP2
// payment (v0.1 PaymentMandate, v0.2 SD-JWT mandates) leaves the task input-required naming the approval request,
// nothing charged; a follow-up meanwhile changes nothing. Approved by the payer's key (twice at once, then again):
// the task completes with the receipts a paid task gets, charged once, and a subscriber and the task's push webhook
// see the transition. Declined, or expired by the tick's sweep: the task fails, nothing charged. An open (v0.2)
// mandate's spend is held while it waits and given back on decline, and when the approved card declines.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { a2aClient, ap2V02PayMessage, agentBase, AP2_EXT, data, dataOf, send, userMessage } from "../helpers/a2a";
import { Ap2V02Buyer, hashOf, type Ap2CheckoutOffer } from "../helpers/ap2-v02-buyer";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tick } from "../helpers/payments";

const AP2_V02_EXT = "https://github.com/google-agentic-commerce/ap2/v1";

let seller: TestMerchant;
let buyer: TestMerchant;
let ap2: Ap2V02Buyer;
let report: { id: string };
let agentId: string;
let hook: http.Server;
let hookUrl = "";
const pushed: string[] = [];

beforeAll(async () => {
  [seller, buyer] = await Promise.all([createTestMerchant("A2A approval seller"), createTestMerchant("A2A approval buyer")]);
  ap2 = new Ap2V02Buyer(seller, buyer, "A2A approval seller");
  await ap2.register();
  report = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Report", unitAmount: 50, currency: "usd" } })).body;
  const agent = await call("POST", "/v1/spending_agents", {
    key: buyer.testKey,
    body: {
      name: "A2A agent",
      policy: { approvalThreshold: [{ currency: "usd", amount: 30 }], budgets: [{ window: "day", currency: "usd", amount: 10_000 }] },
    },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  agentId = agent.body.id;
  hook = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      pushed.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/a2a-hook`;
});
afterAll(() => new Promise<void>((resolve) => (hook ? hook.close(() => resolve()) : resolve())));

const charges = () => getDb().paymentIntent.count({ where: { merchantId: seller.merchantId, status: { in: ["captured", "settled"] } } });
const approve = (id: string) => call("POST", `/v1/approval_requests/${id}/approve`, { key: buyer.testKey });
const decline = (id: string) => call("POST", `/v1/approval_requests/${id}/decline`, { key: buyer.testKey });
const allData = (task: Task) => [...task.artifacts.flatMap((a) => dataOf(a.parts)), ...dataOf(task.status?.message?.parts)];
const found = (task: Task, key: string) => allData(task).find((d) => d[key] !== undefined)?.[key];

async function mintSpt(paymentMethod = "pm_card_visa"): Promise<string> {
  const res = await call("POST", "/v1/shared_payment_tokens", {
    key: buyer.testKey,
    body: { paymentMethod, maxAmount: 1000, currency: "usd", merchantId: seller.merchantId, spendingAgentId: agentId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The waiting task: input-required, its status naming a pending request; the request's id. */
function expectWaiting(task: Task): string {
  expect(task.status?.state, JSON.stringify(task.status)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const approval = found(task, "agentpay.approval");
  expect(approval).toMatchObject({ status: "pending", approvalRequestId: expect.stringMatching(/^apr_/), expiresAt: expect.any(String) });
  expect(task.status?.message?.metadata?.["agentpay.approval"]).toMatchObject({ approvalRequestId: approval.approvalRequestId });
  return approval.approvalRequestId;
}

// ---- AP2 v0.1 (CartMandate + PaymentMandate) ----

async function cartTask(client: Awaited<ReturnType<typeof a2aClient>>) {
  const task = await send(client, userMessage([data({ action: "buy", items: [{ productId: report.id, quantity: 1 }] })]), [AP2_EXT]);
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const cart = found(task, "ap2.mandates.CartMandate");
  expect(cart).toBeTruthy();
  return { task, cart };
}

function mandateMessage(task: Task, cart: any, token: string) {
  const pm = {
    payment_mandate_contents: {
      payment_mandate_id: randomUUID(),
      payment_details_id: cart.contents.id,
      payment_details_total: cart.contents.payment_request.details.total,
      payment_response: {
        request_id: cart.contents.id,
        method_name: cart.contents.payment_request.method_data[0].supported_methods,
        details: { token },
      },
      merchant_agent: agentBase(seller.merchantId),
      timestamp: new Date().toISOString(),
    },
    user_authorization: null,
  };
  return userMessage([data({ "ap2.mandates.PaymentMandate": pm })], { taskId: task.id, contextId: task.contextId });
}

describe("A2A/AP2 v0.1 payments waiting for the payer's approval", () => {
  it("input-required naming the request, nothing charged; approved (twice at once): completed once, seen by a subscriber and the push webhook", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const { task, cart } = await cartTask(client);
    await client.createTaskPushNotificationConfig({
      tenant: "",
      id: "",
      taskId: task.id,
      url: hookUrl,
      token: "",
      authentication: undefined,
    });
    const token = await mintSpt();
    const before = await charges();

    const waiting = await send(client, mandateMessage(task, cart, token), [AP2_EXT]);
    const requestId = expectWaiting(waiting);
    expect(await charges()).toBe(before);
    const request = await call("GET", `/v1/approval_requests/${requestId}`, { key: buyer.testKey });
    expect(request.body).toMatchObject({
      status: "pending",
      protocol: "ap2",
      amount: 50,
      sharedPaymentTokenId: token,
      spendingAgentId: agentId,
    });
    // A follow-up while it waits: the same request, nothing tried again.
    expect(expectWaiting(await send(client, mandateMessage(task, cart, token), [AP2_EXT]))).toBe(requestId);
    expect(await charges()).toBe(before);

    const events: StreamResponse[] = [];
    const following = (async () => {
      for await (const event of client.resubscribeTask({ tenant: "", id: task.id })) events.push(event);
    })();
    await until(async () => (events.length ? true : undefined), "the subscription's first event");

    const [a, b] = await Promise.all([approve(requestId), approve(requestId)]);
    for (const r of [a, b]) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(a.body.paymentIntentId).toMatch(/^pi_/);
    expect(b.body.paymentIntentId).toBe(a.body.paymentIntentId);
    expect(await charges()).toBe(before + 1);

    const done = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(done.status?.state, JSON.stringify(done.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    const receipt = found(done, "ap2.PaymentReceipt");
    expect(receipt).toMatchObject({ status: "Success", payment_id: a.body.paymentIntentId, serviceReceipt: expect.any(String) });
    expect(found(done, "orderId")).toEqual(expect.stringMatching(/^ord_/));
    expect((await getDb().a2aTask.findUniqueOrThrow({ where: { id: task.id } })).paymentIntentId).toBe(a.body.paymentIntentId);
    const mandate = await getDb().ap2Mandate.findFirstOrThrow({ where: { taskId: task.id } });
    expect(mandate.paymentIntentId).toBe(a.body.paymentIntentId);

    await following; // the subscription ends at the terminal state
    const last = events.at(-1)!.payload;
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await until(async () => (pushed.some((b) => b.includes(task.id) && b.includes("TASK_STATE_COMPLETED")) ? true : undefined), "the push");

    // Approving again changes nothing.
    const again = await approve(requestId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "approved", paymentIntentId: a.body.paymentIntentId });
    expect(await charges()).toBe(before + 1);
    expect((await client.getTask({ tenant: "", id: task.id, historyLength: undefined })).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });

  it("declined: the task fails with an Error receipt, nothing charged", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const { task, cart } = await cartTask(client);
    const before = await charges();
    const requestId = expectWaiting(await send(client, mandateMessage(task, cart, await mintSpt()), [AP2_EXT]));
    const declined = await decline(requestId);
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    const failed = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(found(failed, "ap2.PaymentReceipt")).toMatchObject({ status: "Error", error: "approval_declined", payment_id: "" });
    expect(await charges()).toBe(before);
    expect((await getDb().a2aTask.findUniqueOrThrow({ where: { id: task.id } })).paymentIntentId).toBeNull();
    expect((await approve(requestId)).status).toBe(409);
    expect(await charges()).toBe(before);
  });
});

// ---- AP2 v0.2 (SD-JWT mandates) ----

async function checkoutTask(client: Awaited<ReturnType<typeof a2aClient>>): Promise<{ task: Task; checkout: Ap2CheckoutOffer }> {
  const task = await send(client, userMessage([data({ action: "buy", items: [{ productId: report.id, quantity: 1 }] })]), [AP2_V02_EXT]);
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  return { task, checkout: found(task, "ap2.checkout") as Ap2CheckoutOffer };
}

describe("A2A/AP2 v0.2 payments waiting for the payer's approval", () => {
  it("approved: completed with AP2's signed Success receipts for the presented mandates, charged once", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const { task, checkout } = await checkoutTask(client);
    const mandates = await ap2.humanPresent(checkout, await mintSpt());
    const before = await charges();
    const requestId = expectWaiting(await send(client, ap2V02PayMessage(task, mandates), [AP2_V02_EXT]));
    expect(await charges()).toBe(before);
    const approved = await approve(requestId);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const done = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`));
    const paymentReceipt = (await jwtVerify(found(done, "ap2.PaymentReceipt") as string, jwks)).payload;
    expect(paymentReceipt).toMatchObject({
      status: "Success",
      payment_id: approved.body.paymentIntentId,
      reference: hashOf(mandates.payment_mandate.split("~~")[1]),
    });
    const checkoutReceipt = (await jwtVerify(found(done, "ap2.CheckoutReceipt") as string, jwks)).payload;
    expect(checkoutReceipt).toMatchObject({ status: "Success", reference: hashOf(mandates.checkout_mandate.split("~~")[1]) });
    expect(found(done, "orderId")).toBe(checkoutReceipt.order_id);
    expect(await charges()).toBe(before + 1);
    expect((await getDb().ap2Checkout.findUniqueOrThrow({ where: { id: checkout.id } })).paymentIntentId).toBe(
      approved.body.paymentIntentId,
    );
    expect((await approve(requestId)).body.paymentIntentId).toBe(approved.body.paymentIntentId);
    expect(await charges()).toBe(before + 1);
  });

  it("expired (the tick's sweep): the task fails with signed Error receipts, nothing charged", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const { task, checkout } = await checkoutTask(client);
    const before = await charges();
    const requestId = expectWaiting(
      await send(client, ap2V02PayMessage(task, await ap2.humanPresent(checkout, await mintSpt())), [AP2_V02_EXT]),
    );
    await getDb().$executeRaw`UPDATE approval_requests SET expires_at = now() - interval '1 second' WHERE id = ${requestId}`;
    await tick();
    const expired = await call("GET", `/v1/approval_requests/${requestId}`, { key: buyer.testKey });
    expect(expired.body).toMatchObject({ status: "expired", protocol: "ap2", a2aTaskId: task.id });
    const failed = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`));
    const receipt = (await jwtVerify(found(failed, "ap2.PaymentReceipt") as string, jwks)).payload;
    expect(receipt).toMatchObject({ status: "Error", error: "approval_expired", payment_id: "" });
    expect(await charges()).toBe(before);
  });

  it("an open mandate's spend is held while it waits (a second charge is over budget), given back on decline and when the approved card declines", async () => {
    const cnf = { jwk: ap2.agent.publicKey };
    const openCheckout = await ap2.signMandate({
      vct: "mandate.checkout.open.1",
      cnf,
      constraints: [
        { type: "checkout.line_items", items: [{ id: "r", acceptable_items: [{ id: report.id, title: "Report" }], quantity: 1 }] },
      ],
    });
    const openPayment = await ap2.signMandate({
      vct: "mandate.payment.open.1",
      cnf,
      constraints: [
        { type: "payment.amount_range", currency: "USD", max: 1000, min: 0 },
        { type: "payment.allowed_payees", allowed: [ap2.payee()] },
        { type: "payment.budget", max: 0.5, currency: "USD" }, // one report
        { type: "payment.agent_recurrence", frequency: "ON_DEMAND", max_occurrences: 100 },
      ],
    });
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const payOpen = async (paymentMethod?: string) => {
      const { task, checkout } = await checkoutTask(client);
      const token = await mintSpt(paymentMethod);
      const mandates = {
        checkout_mandate: await ap2.bind(openCheckout, ap2.closedCheckout(checkout), checkout),
        payment_mandate: await ap2.bind(openPayment, ap2.closedPayment(checkout, token), checkout),
      };
      return send(client, ap2V02PayMessage(task, mandates), [AP2_V02_EXT]);
    };
    const before = await charges();
    const requestId = expectWaiting(await payOpen());
    const over = await payOpen(); // the budget is held by the waiting charge
    expect(over.status?.state, JSON.stringify(over.status)).toBe(TaskState.TASK_STATE_FAILED);
    expect(JSON.stringify(over.status?.message)).toContain("budget_exceeded");
    expect((await decline(requestId)).status).toBe(200);

    // Given back: the next charge fits (and waits for its own approval). Approved, its card declines: the approval
    // answers 402, the task fails with signed Error receipts, and the spend is given back again.
    const declining = await payOpen("pm_card_chargeDeclinedInsufficientFunds");
    const approved = await approve(expectWaiting(declining));
    expect(approved.status, JSON.stringify(approved.body)).toBe(402);
    expect(approved.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "insufficient_funds" } });
    const failed = await client.getTask({ tenant: "", id: declining.id, historyLength: undefined });
    expect(failed.status?.state, JSON.stringify(failed.status)).toBe(TaskState.TASK_STATE_FAILED);
    expect(JSON.stringify(failed.status?.message)).toContain("insufficient_funds");
    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`));
    const receipt = (await jwtVerify(found(failed, "ap2.PaymentReceipt") as string, jwks)).payload;
    expect(receipt).toMatchObject({ status: "Error", error: "payment_declined", payment_id: "" });
    expectWaiting(await payOpen());
    expect(await charges()).toBe(before);
  });
});
