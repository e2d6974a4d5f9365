// Charge only on success (issue 32 item 5; docs/sdk.md "When the paid call fails"), against the real service: a
// paywalled MCP tool that throws, or a paywallHttp handler that answers 5xx or throws, after a valid payment keeps
// its redemption (SPEC 3.3) and has its PaymentIntent refunded once through POST /v1/refunds with the merchant's
// key (Idempotency-Key paywall-failure:<pi>); the result says so. The ledger (GET /v1/balance) and the refunds list
// are checked; two concurrent calls with one payment still run the tool once.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { paywall, paywallHttp, serviceBackend, serviceConsumedStore, type PaywallOptions } from "agent-payments-sdk";
import { baseUrl, call } from "../helpers/http";
import { payGate } from "../helpers/mcp-example";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { sleep } from "../helpers/payments";

const PRICE = 25;
let payer: TestMerchant;
beforeAll(async () => {
  payer = await createTestMerchant("Refund test agent");
});
afterEach(() => vi.restoreAllMocks());

/** The paywall's options for a seller: its service backend and store (so refunds go through its key too). */
function options(seller: TestMerchant, sku: string, extra: Partial<PaywallOptions> = {}): PaywallOptions {
  const service = { baseUrl: baseUrl(), apiKey: seller.testKey };
  return {
    backend: serviceBackend(service),
    consumed: serviceConsumedStore({ ...service, merchantId: seller.merchantId }),
    merchantId: seller.merchantId,
    price: PRICE,
    currency: "usd",
    sku,
    ...extra,
  };
}

/** The payer pays the seller's terms at the pay endpoint with its own key. */
const pay = (seller: TestMerchant, sku: string) =>
  payGate({ payEndpoint: `${baseUrl()}/v1/paywall/pay`, merchant: seller.merchantId, amount: PRICE, currency: "USD", sku }, payer);

/** What the ledger holds for the seller in USD (pending + payable). */
async function balanceUsd(seller: TestMerchant): Promise<number> {
  const res = await call("GET", "/v1/balance", { key: seller.testKey });
  expect(res.status).toBe(200);
  const sum = (list: { currency: string; amount: number }[]) => list.filter((b) => b.currency === "USD").reduce((s, b) => s + b.amount, 0);
  return sum(res.body.pending) + sum(res.body.payable);
}

async function refundsOf(seller: TestMerchant, paymentIntentId: string) {
  const res = await call("GET", `/v1/refunds?paymentIntentId=${paymentIntentId}`, { key: seller.testKey });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; amount: number; status: string; paymentIntentId: string }[];
}

async function paymentIntent(seller: TestMerchant, paymentIntentId: string) {
  return (await call("GET", `/v1/payment_intents/${paymentIntentId}`, { key: seller.testKey })).body;
}

/** The refund of a failed call, checked in the books: exactly one, of the whole price, and the balance back where it was. */
async function expectRefundedOnce(seller: TestMerchant, paymentIntentId: string, refundId: string, balanceBefore: number) {
  expect(await refundsOf(seller, paymentIntentId)).toEqual([
    expect.objectContaining({ id: refundId, amount: PRICE, status: "succeeded", paymentIntentId }),
  ]);
  expect(await paymentIntent(seller, paymentIntentId)).toMatchObject({ status: "refunded", amountCaptured: PRICE, amountRefunded: PRICE });
  expect(await balanceUsd(seller)).toBe(balanceBefore);
}

/** An official McpServer with one paywalled tool, driven by the official MCP Client over an in-memory transport. */
async function mcpTool(opts: PaywallOptions, work: (symbol: string) => Promise<string>) {
  const server = new McpServer({ name: "paid-tools", version: "1.0.0" });
  const counter = { runs: 0 };
  server.registerTool(
    "quote",
    { inputSchema: { symbol: z.string(), _servicePayment: z.object({ paymentIntentId: z.string() }).optional() } },
    paywall(opts)(async ({ symbol }) => {
      counter.runs++;
      return { content: [{ type: "text", text: await work(symbol) }] };
    }),
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "agent", version: "1.0.0" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const callTool = (args: Record<string, unknown>) => client.callTool({ name: "quote", arguments: { symbol: "acme", ...args } });
  const close = async () => {
    await client.close();
    await server.close();
  };
  return { callTool, counter, close };
}

const proof = (paymentIntentId: string) => ({ _servicePayment: { paymentIntentId } });

describe("paywall() (MCP): a tool that throws after a valid payment", () => {
  it("isError with its message and payment refunded: refunded once in the ledger; the same proof is already_redeemed; the next payment runs it", async () => {
    const seller = await createTestMerchant("MCP refund seller");
    let failing = true;
    const tool = await mcpTool(options(seller, "tool:quote"), async (symbol) => {
      if (failing) throw new Error("the quote feed is down");
      return `${symbol}: 101.5`;
    });
    try {
      const gate = await tool.callTool({});
      expect(gate.structuredContent).toMatchObject({ kind: "payment_required", amount: PRICE, sku: "tool:quote" });
      const before = await balanceUsd(seller);
      const paymentIntentId = await pay(seller, "tool:quote");
      expect(await balanceUsd(seller)).toBe(before + PRICE);

      const failed = await tool.callTool(proof(paymentIntentId));
      expect(failed.isError).toBe(true);
      expect(failed.payment).toEqual({ status: "refunded", paymentIntentId, refundId: expect.stringMatching(/^re_/) });
      const content = failed.content as { type: string; text: string }[];
      expect(content[0]).toEqual({ type: "text", text: "the quote feed is down" });
      expect(content[1].text).toContain(`payment ${paymentIntentId} was refunded`);
      expect(tool.counter.runs).toBe(1);
      const { refundId } = failed.payment as { refundId: string };
      await expectRefundedOnce(seller, paymentIntentId, refundId, before);

      // SPEC 3.3: the redeemed proof never runs the tool again, and nothing is refunded again.
      const again = await tool.callTool(proof(paymentIntentId));
      expect(again.isError).toBe(true);
      expect(again.structuredContent).toMatchObject({ kind: "already_redeemed", result: "already_redeemed", paymentIntentId });
      expect(again.payment).toBeUndefined();
      expect(tool.counter.runs).toBe(1);
      await expectRefundedOnce(seller, paymentIntentId, refundId, before);

      // The caller pays again for the next call.
      failing = false;
      const next = await pay(seller, "tool:quote");
      const ok = await tool.callTool(proof(next));
      expect(ok.isError).toBeFalsy();
      expect(ok.payment).toEqual({ status: "paid", paymentIntentId: next });
      expect(ok.content).toEqual([{ type: "text", text: "acme: 101.5" }]);
      expect(await balanceUsd(seller)).toBe(before + PRICE);
      expect(await refundsOf(seller, next)).toEqual([]);
    } finally {
      await tool.close();
    }
  });

  it("two concurrent calls with one payment run the tool once: one refunded result, one already_redeemed, one refund", async () => {
    const seller = await createTestMerchant("MCP race seller");
    const tool = await mcpTool(options(seller, "tool:race"), async () => {
      await sleep(200); // both calls are in flight while the first one works
      throw new Error("failed midway");
    });
    try {
      const before = await balanceUsd(seller);
      const paymentIntentId = await pay(seller, "tool:race");
      const results = await Promise.all([tool.callTool(proof(paymentIntentId)), tool.callTool(proof(paymentIntentId))]);
      expect(tool.counter.runs).toBe(1);
      const refunded = results.filter((r) => (r.payment as { status?: string } | undefined)?.status === "refunded");
      const redeemed = results.filter((r) => (r.structuredContent as { kind?: string } | undefined)?.kind === "already_redeemed");
      expect(refunded).toHaveLength(1);
      expect(redeemed).toHaveLength(1);
      await expectRefundedOnce(seller, paymentIntentId, (refunded[0].payment as { refundId: string }).refundId, before);
    } finally {
      await tool.close();
    }
  });

  it("with verify-then-consume (any other store), the refunded payment is already_redeemed too, not insufficient_amount", async () => {
    const seller = await createTestMerchant("MCP other-store seller");
    const base = options(seller, "tool:other");
    const store = base.consumed;
    const tool = await mcpTool({ ...base, consumed: { consume: (id) => store.consume(id) } }, async () => {
      throw new Error("nope");
    });
    try {
      const paymentIntentId = await pay(seller, "tool:other");
      expect((await tool.callTool(proof(paymentIntentId))).payment).toMatchObject({ status: "refunded", paymentIntentId });
      const again = await tool.callTool(proof(paymentIntentId));
      expect(again.structuredContent).toMatchObject({ kind: "already_redeemed", paymentIntentId });
      expect(tool.counter.runs).toBe(1);
      expect(await refundsOf(seller, paymentIntentId)).toHaveLength(1);
    } finally {
      await tool.close();
    }
  });

  it("a refund that fails is reported as refund_failed (the call never throws) and logged without the key; the payment stays captured", async () => {
    const seller = await createTestMerchant("MCP refund-fails seller");
    const stranger = await createTestMerchant("Not the seller");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    // Refunds through another merchant's key: the service does not know this PaymentIntent there (404).
    const opts = options(seller, "tool:nofund", { refund: { baseUrl: baseUrl(), apiKey: stranger.testKey } });
    const tool = await mcpTool(opts, async () => {
      throw new Error("broken");
    });
    try {
      const paymentIntentId = await pay(seller, "tool:nofund");
      const failed = await tool.callTool(proof(paymentIntentId));
      expect(failed.isError).toBe(true);
      expect(failed.payment).toEqual({
        status: "refund_failed",
        paymentIntentId,
        error: { code: "NOT_FOUND", message: expect.any(String) },
      });
      expect((failed.content as { text: string }[])[0].text).toBe("broken");
      expect((failed.content as { text: string }[])[1].text).toContain("refunding payment");
      expect(await refundsOf(seller, paymentIntentId)).toEqual([]);
      expect(await paymentIntent(seller, paymentIntentId)).toMatchObject({ amountCaptured: PRICE, amountRefunded: 0 });
      const logged = warn.mock.calls.map((args) => args.join(" ")).join("\n");
      expect(logged).toContain(paymentIntentId);
      expect(logged).toContain(`paywall-failure:${paymentIntentId}`);
      for (const key of [seller.testKey, stranger.testKey]) expect(logged).not.toContain(key);
      // Still redeemed.
      expect((await tool.callTool(proof(paymentIntentId))).structuredContent).toMatchObject({ kind: "already_redeemed" });
    } finally {
      await tool.close();
    }
  });
});

describe("paywallHttp(): a handler that answers 5xx or throws after a valid payment", () => {
  function httpPaywall(seller: TestMerchant, sku: string) {
    const counter = { runs: 0 };
    const handler = paywallHttp(options(seller, sku))(async (req) => {
      counter.runs++;
      const path = new URL(req.url).pathname;
      if (path === "/unavailable") return Response.json({ error: "upstream busy" }, { status: 503, headers: { "x-merchant": "kept" } });
      if (path === "/text") return new Response("gateway timeout", { status: 504, headers: { "content-type": "text/plain" } });
      if (path === "/throws") throw new Error("db password wrong: hunter2");
      if (path === "/bad") return Response.json({ error: "no such city" }, { status: 404 });
      return Response.json({ forecast: "sunny" });
    });
    return { handler, counter };
  }
  const request = (path: string, paymentIntentId: string) =>
    new Request(`http://api.local${path}`, { headers: { "x-service-payment": paymentIntentId } });
  const paymentHeader = (res: Response) => JSON.parse(res.headers.get("x-service-payment-response")!);

  it("a 5xx answer passes through with the payment refunded (header and JSON field); the same proof is 409; refunded once", async () => {
    const seller = await createTestMerchant("HTTP refund seller");
    const { handler, counter } = httpPaywall(seller, "api:forecast");
    const before = await balanceUsd(seller);
    const paymentIntentId = await pay(seller, "api:forecast");

    const res = await handler(request("/unavailable", paymentIntentId));
    expect(res.status).toBe(503);
    expect(res.headers.get("x-merchant")).toBe("kept");
    const body = await res.json();
    const payment = { status: "refunded", paymentIntentId, refundId: expect.stringMatching(/^re_/) };
    expect(body).toEqual({ error: "upstream busy", payment });
    expect(paymentHeader(res)).toEqual(body.payment);
    await expectRefundedOnce(seller, paymentIntentId, body.payment.refundId, before);

    const again = await handler(request("/unavailable", paymentIntentId));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ kind: "already_redeemed", paymentIntentId });
    expect(counter.runs).toBe(1);
    await expectRefundedOnce(seller, paymentIntentId, body.payment.refundId, before);

    // A body that is not JSON passes through untouched; the header names the refund.
    const other = await pay(seller, "api:forecast");
    const text = await handler(request("/text", other));
    expect(text.status).toBe(504);
    expect(await text.text()).toBe("gateway timeout");
    expect(paymentHeader(text)).toEqual({ status: "refunded", paymentIntentId: other, refundId: expect.stringMatching(/^re_/) });
    expect(await refundsOf(seller, other)).toHaveLength(1);
  });

  it("a handler that throws: 500 in the service's error shape, no internals, the payment refunded", async () => {
    const seller = await createTestMerchant("HTTP throw seller");
    const { handler } = httpPaywall(seller, "api:forecast");
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const before = await balanceUsd(seller);
    const paymentIntentId = await pay(seller, "api:forecast");
    const res = await handler(request("/throws", paymentIntentId));
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      error: { code: "INVARIANT_VIOLATION", message: expect.any(String), details: {} },
      payment: { status: "refunded", paymentIntentId, refundId: expect.stringMatching(/^re_/) },
    });
    expect(JSON.stringify(body)).not.toContain("hunter2");
    expect(error).toHaveBeenCalled();
    await expectRefundedOnce(seller, paymentIntentId, body.payment.refundId, before);
  });

  it("a 4xx answer is the call's answer: charged, not refunded", async () => {
    const seller = await createTestMerchant("HTTP 4xx seller");
    const { handler } = httpPaywall(seller, "api:forecast");
    const before = await balanceUsd(seller);
    const paymentIntentId = await pay(seller, "api:forecast");
    const res = await handler(request("/bad", paymentIntentId));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "no such city", payment: { status: "paid", paymentIntentId } });
    expect(await refundsOf(seller, paymentIntentId)).toEqual([]);
    expect(await balanceUsd(seller)).toBe(before + PRICE);
  });
});
