// The A2A merchant agent (docs/a2a.md) with the REAL @a2a-js/sdk 1.3 client (ClientFactory().createFromUrl,
// A2A v1.0 over JSON-RPC): the agent card, browsing the catalog, buying with the a2a-x402 extension (the payment
// built by @x402/fetch's x402Client with @x402/evm's ExactEvmScheme, settled by lib/x402 into the one ledger, source
// a2a), a replayed or tampered payment refused with nothing charged, the v0.3 compatibility path, tasks kept in
// Postgres (a SECOND server process answers GetTask for a task the first created), and bad input on every path
// answered with JSON-RPC errors, never a 500.
import { randomUUID } from "node:crypto";
import { Message, TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, createAuthenticatingFetchWithRetry, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { x402Client } from "@x402/fetch";
import { decodeJwt } from "jose";
import { ExactEvmScheme } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { demoMerchantId } from "../../lib/merchants/demo";
import { seedDemoMerchant } from "../../scripts/lib/seed";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { a2aClient, agentBase, asTask, bearerFetch, data, dataOf, send, text, userMessage, X402_EXT } from "../helpers/a2a";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

let seller: TestMerchant;
let buyer: TestMerchant;
let other: TestMerchant;
let second: ServerProcess;
let hat: { id: string; unitAmount: number };
let scarf: { id: string };

beforeAll(async () => {
  [seller, buyer, other] = await Promise.all([
    createTestMerchant("A2A seller"),
    createTestMerchant("A2A buyer"),
    createTestMerchant("A2A other"),
  ]);
  second = await startTestServer();
  hat = (
    await call("POST", "/v1/products", {
      key: seller.testKey,
      body: { name: "Red hat", unitAmount: 25, currency: "usd", description: "A hat" },
    })
  ).body;
  scarf = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Scarf", unitAmount: 40, currency: "usd" } })).body;
  expect(hat.id).toMatch(/^prd_/);
});
afterAll(() => second?.stop());

async function rpc(
  body: unknown,
  options: {
    key?: string | null;
    version?: string | null;
    merchantId?: string;
    raw?: string;
    extensions?: string;
    xExtensions?: string;
  } = {},
) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (options.key !== null) headers.Authorization = `Bearer ${options.key ?? buyer.testKey}`;
  if (options.version !== null) headers["A2A-Version"] = options.version ?? "1.0";
  if (options.extensions) headers["A2A-Extensions"] = options.extensions;
  if (options.xExtensions) headers["X-A2A-Extensions"] = options.xExtensions;
  const res = await fetch(agentBase(options.merchantId ?? seller.merchantId), {
    method: "POST",
    headers,
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

/** The demo merchant of the test database, seeded as npm start seeds it (its real login: other tests sign in with it). */
async function demoMerchant(): Promise<string> {
  try {
    await seedDemoMerchant(process.env.DATABASE_URL!);
  } catch {
    // seeded concurrently by another test file
  }
  return (await demoMerchantId(getDb()))!;
}

async function a2aPayments(merchantId: string) {
  return getDb().paymentIntent.count({ where: { merchantId, source: "a2a" } });
}

async function balanceUsd(key: string): Promise<number> {
  const res = await call("GET", "/v1/balance", { key });
  const sum = (list: { currency: string; amount: number }[]) => list.filter((b) => b.currency === "USD").reduce((s, b) => s + b.amount, 0);
  return sum(res.body.pending) + sum(res.body.payable);
}

function payer() {
  const account = privateKeyToAccount(generatePrivateKey());
  return { account, x402: new x402Client().register("eip155:84532", new ExactEvmScheme(account)) };
}

describe("the agent card", () => {
  it("is public, A2A v1.0 ProtoJSON with the v0.3 interface, the buyer's key as Bearer scheme, the x402 and AP2 extensions", async () => {
    const res = await fetch(`${agentBase(seller.merchantId)}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).not.toBeNull();
    const card = await res.json();
    expect(card.name).toContain("A2A seller");
    expect(card.supportedInterfaces).toEqual([
      { url: agentBase(seller.merchantId), protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: agentBase(seller.merchantId), protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      { url: agentBase(seller.merchantId), protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    ]);
    expect(card.securitySchemes.apiKey.httpAuthSecurityScheme).toMatchObject({ scheme: "Bearer" });
    expect(card.securityRequirements).toEqual([{ schemes: { apiKey: {} } }]); // ProtoJSON omits the empty scope list
    expect(card.capabilities.extensions.map((e: any) => e.uri)).toEqual([
      X402_EXT,
      "https://github.com/google-agentic-commerce/ap2/tree/v0.1",
      "https://github.com/google-agentic-commerce/ap2/v1",
    ]);
    expect(card.skills[0]).toMatchObject({ id: "catalog" });
  });

  it("the root /.well-known/agent-card.json answers for the demo merchant (the one npm start seeds)", async () => {
    const demo = await demoMerchant();
    const res = await fetch(`${baseUrl()}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card = await res.json();
    expect(card.supportedInterfaces[0].url).toBe(agentBase(demo));
    // The real client finds the demo merchant's agent from the service's root address.
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: bearerFetch(buyer.testKey) })],
      }),
    ).createFromUrl(baseUrl());
    const task = await send(client, userMessage([text("browse")]));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await getDb().a2aTask.findUnique({ where: { id: task.id } }))?.merchantId).toBe(demo);
  });

  it("unknown merchant: 404 in the JSON-RPC error envelope", async () => {
    for (const id of ["mer_doesnotexist00000000000", "not-a-merchant", "%00"]) {
      const res = await fetch(`${baseUrl()}/a2a/${id}/.well-known/agent-card.json`);
      expect(res.status, id).toBe(404);
      const body = await res.json();
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number), message: expect.any(String) } });
    }
  });
});

describe("browsing with the real @a2a-js/sdk client", () => {
  it("the catalog skill lists active products; the task is in Postgres and a second server process answers GetTask", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    expect(client).toBeDefined();
    const task = await send(client, userMessage([text("browse")]));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const catalog = dataOf(task.artifacts[0]?.parts)[0];
    expect(catalog.products.map((p: any) => p.productId)).toEqual(expect.arrayContaining([hat.id, scarf.id]));
    expect(catalog.products.find((p: any) => p.productId === hat.id)).toMatchObject({ name: "Red hat", unitAmount: 25, currency: "USD" });

    const row = await getDb().a2aTask.findUnique({ where: { id: task.id } });
    expect(row).toMatchObject({ merchantId: seller.merchantId, owner: buyer.merchantId, livemode: false, state: "TASK_STATE_COMPLETED" });

    // Another process, same database: GetTask answers with the same task.
    const other2 = await a2aClient(seller.merchantId, buyer.testKey, second.url);
    const again = await other2.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(again.id).toBe(task.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(dataOf(again.artifacts[0]?.parts)[0].products).toHaveLength(catalog.products.length);

    // Another buyer does not see it (tasks are the caller's): TaskNotFound.
    const stranger = await a2aClient(seller.merchantId, other.testKey);
    await expect(stranger.getTask({ tenant: "", id: task.id, historyLength: undefined })).rejects.toThrow();
  });

  it("the v0.3 compatibility path answers (message/send, tasks/get) with the SDK's legacy transport and raw JSON-RPC", async () => {
    const raw = await rpc(
      {
        jsonrpc: "2.0",
        id: 7,
        method: "message/send",
        params: { message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "browse" }] } },
      },
      { version: null },
    );
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({ jsonrpc: "2.0", id: 7, result: { kind: "task", status: { state: "completed" } } });
    const got = await rpc({ jsonrpc: "2.0", id: 8, method: "tasks/get", params: { id: raw.body.result.id } }, { version: "0.3" });
    expect(got.body.result).toMatchObject({ kind: "task", id: raw.body.result.id, status: { state: "completed" } });

    const fetchImpl = createAuthenticatingFetchWithRetry(fetch, {
      headers: async () => ({ Authorization: `Bearer ${buyer.testKey}` }),
      shouldRetryWithHeaders: async () => undefined,
    });
    const legacy = new LegacyJsonRpcTransport({ endpoint: agentBase(seller.merchantId), fetchImpl });
    const task = asTask(
      await legacy.sendMessage({ tenant: "", message: userMessage([text("browse")]), configuration: undefined, metadata: undefined }),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});

describe("buying with the a2a-x402 extension", () => {
  it("payment-required -> payment-submitted (ExactEvmScheme payload) -> payment-completed with receipts; one ledger (source a2a); replay and tampering refused with nothing charged; refund", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const before = await balanceUsd(seller.testKey);
    const t1 = await send(client, userMessage([text(`buy ${hat.id} 2`)]), [X402_EXT]);
    expect(t1.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const meta = t1.status!.message!.metadata!;
    expect(meta["x402.payment.status"]).toBe("payment-required");
    const required = meta["x402.payment.required"];
    const supported = await call("GET", "/x402/supported", { key: seller.testKey });
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount: "500000",
          asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          payTo: supported.body.kinds[0].extra.payTo,
          extra: { name: "USDC", version: "2" },
        },
      ],
    });

    const { account, x402 } = payer();
    const payload = await x402.createPaymentPayload(required);
    const t2 = await send(
      client,
      userMessage([text("paying")], {
        taskId: t1.id,
        contextId: t1.contextId,
        metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
      }),
      [X402_EXT],
    );
    expect(t2.status?.state, JSON.stringify(t2.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    const done = t2.status!.message!.metadata!;
    expect(done["x402.payment.status"]).toBe("payment-completed");
    expect(done["x402.payment.receipts"]).toEqual([
      {
        success: true,
        transaction: expect.stringMatching(/^pi_/),
        network: "eip155:84532",
        payer: account.address,
        serviceReceipt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      },
    ]);
    const piId = done["x402.payment.receipts"][0].transaction;
    // The service's signed receipt of the payment (docs/receipts.md), the one GET /v1/payment_intents/:id/receipt answers.
    expect(decodeJwt(done["x402.payment.receipts"][0].serviceReceipt)).toMatchObject({
      sub: piId,
      source: "a2a",
      payer: { type: "address", id: account.address },
    });
    expect((await call("GET", `/v1/payment_intents/${piId}/receipt`, { key: seller.testKey })).body.jws).toBe(
      done["x402.payment.receipts"][0].serviceReceipt,
    );

    const pi = await call("GET", `/v1/payment_intents/${piId}`, { key: seller.testKey });
    expect(pi.body).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      amount: 50,
      amountCaptured: 50,
      currency: "USD",
      source: "a2a",
      payer: account.address,
    });
    const order = await call("GET", `/v1/orders/${pi.body.orderId}`, { key: seller.testKey });
    expect(order.body).toMatchObject({
      status: "paid",
      source: "a2a",
      amount: 50,
      items: [{ productId: hat.id, name: "Red hat", quantity: 2, unitAmount: 25 }],
    });
    expect(await balanceUsd(seller.testKey)).toBe(before + 50);
    const events = await call("GET", "/v1/events?type=payment_intent.captured&limit=100", { key: seller.testKey });
    expect(events.body.data.some((e: any) => e.data.object.id === piId)).toBe(true);
    expect((await getDb().a2aTask.findUnique({ where: { id: t1.id } }))?.paymentIntentId).toBe(piId);

    // The task is final: GetTask from the other process shows the receipts.
    const viaSecond = await (
      await a2aClient(seller.merchantId, buyer.testKey, second.url)
    ).getTask({ tenant: "", id: t1.id, historyLength: undefined });
    expect(viaSecond.status?.message?.metadata?.["x402.payment.receipts"][0].transaction).toBe(piId);

    // The same signed payload in a new task: payment-failed DUPLICATE_NONCE, nothing charged.
    const count = await a2aPayments(seller.merchantId);
    const t3 = await send(client, userMessage([text(`buy ${hat.id} 2`)]), [X402_EXT]);
    const replay = await send(
      client,
      userMessage([text("again")], {
        taskId: t3.id,
        contextId: t3.contextId,
        metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
      }),
      [X402_EXT],
    );
    expect(replay.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(replay.status?.message?.metadata).toMatchObject({
      "x402.payment.status": "payment-failed",
      "x402.payment.error": "DUPLICATE_NONCE",
      "x402.payment.receipts": [{ success: false, transaction: "" }],
    });

    // Tampered (value raised after signing): INVALID_SIGNATURE; a payment for another cart: INVALID_AMOUNT.
    const t4 = await send(client, userMessage([text(`buy ${hat.id} 2`)]), [X402_EXT]);
    const fresh = await payer().x402.createPaymentPayload(t4.status!.message!.metadata!["x402.payment.required"]);
    const tampered = structuredClone(fresh) as any;
    tampered.payload.authorization.to = account.address;
    const bad = await send(
      client,
      userMessage([text("x")], {
        taskId: t4.id,
        contextId: t4.contextId,
        metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": tampered },
      }),
      [X402_EXT],
    );
    expect(bad.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(bad.status?.message?.metadata?.["x402.payment.error"]).not.toBe(undefined);
    const t5 = await send(client, userMessage([text(`buy ${scarf.id} 1`)]), [X402_EXT]);
    const cheap = await payer().x402.createPaymentPayload(t1.status!.message!.metadata!["x402.payment.required"]);
    const wrong = await send(
      client,
      userMessage([text("x")], {
        taskId: t5.id,
        contextId: t5.contextId,
        metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": cheap },
      }),
      [X402_EXT],
    );
    expect(wrong.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(await a2aPayments(seller.merchantId)).toBe(count);
    expect(await balanceUsd(seller.testKey)).toBe(before + 50);

    // The extension activated with X-A2A-Extensions (the a2a-x402 spec's header name) works as well.
    const viaX = await rpc(
      { jsonrpc: "2.0", id: 3, method: "SendMessage", params: { message: Message.toJSON(userMessage([text(`buy ${hat.id}`)])) } },
      { xExtensions: X402_EXT },
    );
    expect(viaX.body.result.task.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(viaX.body.result.task.status.message.metadata["x402.payment.status"]).toBe("payment-required");
    expect(viaX.headers.get("a2a-extensions")).toBe(X402_EXT);

    // A finished task takes no more messages (the SDK's UnsupportedOperation error).
    await expect(
      send(
        client,
        userMessage([text("x")], {
          taskId: t1.id,
          contextId: t1.contextId,
          metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
        }),
        [X402_EXT],
      ),
    ).rejects.toThrow();

    // payment-rejected: the task is canceled, nothing charged.
    const t6 = await send(client, userMessage([text(`buy ${hat.id} 1`)]), [X402_EXT]);
    const rejected = await send(
      client,
      userMessage([text("no")], { taskId: t6.id, contextId: t6.contextId, metadata: { "x402.payment.status": "payment-rejected" } }),
      [X402_EXT],
    );
    expect(rejected.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(rejected.status?.message?.metadata?.["x402.payment.status"]).toBe("payment-rejected");

    // Refunds like any payment.
    const refund = await call("POST", "/v1/refunds", { key: seller.testKey, body: { paymentIntentId: piId } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect((await call("GET", `/v1/orders/${pi.body.orderId}`, { key: seller.testKey })).body.status).toBe("refunded");
  });

  it("concurrent payments of one task over two server processes: one charge, the task completed with it", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const t = await send(client, userMessage([text(`buy ${scarf.id} 1`)]), [X402_EXT]);
    const required = t.status!.message!.metadata!["x402.payment.required"];
    const before = await a2aPayments(seller.merchantId);
    // Eight different valid authorizations (eight payers) for the same task, alternating between the processes.
    const payloads = await Promise.all(Array.from({ length: 8 }, () => payer().x402.createPaymentPayload(required)));
    const answers = await Promise.all(
      payloads.map(async (payload, i) => {
        const message = Message.toJSON(
          userMessage([text("paying")], {
            taskId: t.id,
            contextId: t.contextId,
            metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
          }),
        );
        const res = await fetch(agentBase(seller.merchantId, i % 2 ? second.url : baseUrl()), {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "A2A-Version": "1.0",
            "A2A-Extensions": X402_EXT,
            Authorization: `Bearer ${buyer.testKey}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "SendMessage", params: { message } }),
        });
        expect(res.status).toBe(200);
        return res.json();
      }),
    );
    const completed = answers.filter((a: any) => a.result?.task?.status?.state === "TASK_STATE_COMPLETED");
    expect(completed, JSON.stringify(answers.map((a: any) => a.result?.task?.status?.state ?? a.error?.message))).toHaveLength(1);
    expect(await a2aPayments(seller.merchantId)).toBe(before + 1);
    const row = await getDb().a2aTask.findUnique({ where: { id: t.id } });
    expect(row?.state).toBe("TASK_STATE_COMPLETED");
    expect(row?.paymentIntentId).toBe(completed[0].result.task.status.message.metadata["x402.payment.receipts"][0].transaction);
  });

  it("without a payment extension the purchase is rejected; an unknown or archived product too", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const none = await send(client, userMessage([text(`buy ${hat.id}`)]));
    expect(none.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    const unknown = await send(client, userMessage([data({ action: "buy", items: [{ productId: "prd_doesnotexist", quantity: 1 }] })]), [
      X402_EXT,
    ]);
    expect(unknown.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    const invalid = await send(client, userMessage([data({ action: "buy", items: [{ productId: hat.id, quantity: -1 }] })]), [X402_EXT]);
    expect(invalid.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
  });
});

describe("bad input: JSON-RPC errors, never a 500", () => {
  it("every failure before and inside the SDK", async () => {
    const noKey = await rpc({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }, { key: null });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get("www-authenticate")).toContain("Bearer");
    expect(noKey.body).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
    expect((await rpc({}, { key: "sk_test_nope" })).status).toBe(401);

    const unknownAgent = await rpc(
      { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } },
      { merchantId: "mer_doesnotexist000000000000" },
    );
    expect(unknownAgent.status).toBe(404);
    expect(unknownAgent.body.error.code).toBeLessThan(0);

    const cases: [string, { raw?: string; body?: unknown; version?: string | null }][] = [
      ["not JSON", { raw: "{not json" }],
      ["not an object", { raw: "[1,2]" }],
      ["empty", { raw: "" }],
      ["unknown method", { body: { jsonrpc: "2.0", id: 1, method: "Nope", params: {} } }],
      ["v0.3 method on v1", { body: { jsonrpc: "2.0", id: 1, method: "message/send", params: {} } }],
      ["no params", { body: { jsonrpc: "2.0", id: 1, method: "SendMessage" } }],
      ["no message", { body: { jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} } }],
      ["bad message", { body: { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { role: 7, parts: "x" } } } }],
      ["unknown task", { body: { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: randomUUID() } } }],
      ["empty task id", { body: { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "" } } }],
      ["cancel unknown", { body: { jsonrpc: "2.0", id: 1, method: "CancelTask", params: { id: randomUUID() } } }],
      ["streaming without a message", { body: { jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: {} } }],
      ["subscribing to an unknown task", { body: { jsonrpc: "2.0", id: 1, method: "SubscribeToTask", params: { id: randomUUID() } } }],
      [
        "push config",
        { body: { jsonrpc: "2.0", id: 1, method: "CreateTaskPushNotificationConfig", params: { taskId: "t", url: "https://x" } } },
      ],
      ["list tasks huge page", { body: { jsonrpc: "2.0", id: 1, method: "ListTasks", params: { pageSize: 100000 } } }],
      ["unsupported version", { body: { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }, version: "9.9" }],
      ["v0.3 unknown task", { body: { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "nope" } }, version: null }],
      ["v0.3 garbage", { raw: "{{{", version: null }],
    ];
    for (const [name, c] of cases) {
      const res = await rpc(c.body, { raw: c.raw, version: c.version });
      expect(res.status, name).toBeLessThan(500);
      expect(res.body, name).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number), message: expect.any(String) } });
    }

    // A payment-submitted with garbage payload: payment-failed, not a server error.
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    for (const payload of [
      null,
      "x",
      { x402Version: 2 },
      { x402Version: 1, payload: {} },
      { x402Version: 2, accepted: {}, payload: { authorization: {}, signature: "0x" } },
    ]) {
      const t = await send(client, userMessage([text(`buy ${hat.id}`)]), [X402_EXT]);
      const r = await send(
        client,
        userMessage([text("x")], {
          taskId: t.id,
          contextId: t.contextId,
          metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
        }),
        [X402_EXT],
      );
      expect(r.status?.state, JSON.stringify(payload)).toBe(TaskState.TASK_STATE_FAILED);
      expect(r.status?.message?.metadata?.["x402.payment.status"]).toBe("payment-failed");
    }

    // GET on the JSON-RPC address: 405 in the envelope.
    const get = await fetch(agentBase(seller.merchantId));
    expect(get.status).toBe(405);
    expect((await get.json()).jsonrpc).toBe("2.0");
  });
});
