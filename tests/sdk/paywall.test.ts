// paywall(options)(handler) for MCP tools: gate, proof, single-use redemption (docs/sdk.md "Paywall (single-use), for MCP tools", 3.3).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { inMemoryConsumedStore, paywall, REASON_CODES, type PaywallOptions } from "agent-payments-sdk";
import { FakePaywallBackend, PAY_ENDPOINT } from "./support";

const terms = { merchantId: "mer_test", price: 250, currency: "usd", sku: "tool.weather", productRef: "prd_weather" };

function setup(overrides: Partial<PaywallOptions> = {}) {
  const backend = new FakePaywallBackend();
  const consumed = inMemoryConsumedStore();
  const seen: unknown[] = [];
  const tool = paywall({ backend, consumed, ...terms, ...overrides })(async (args: { city: string }, extra: { requestId: number }) => {
    seen.push({ args, extra });
    return { content: [{ type: "text" as const, text: `Sunny in ${args.city}` }], structuredContent: { forecast: "sunny" } };
  });
  const paid = () =>
    backend.pay(`pi_${Math.random().toString(36).slice(2)}`, { merchantId: "mer_test", amount: 250, currency: "USD", sku: "tool.weather" });
  return { backend, consumed, seen, tool, paid };
}

/** structuredContent of any result, for assertions. */
const sc = (result: { structuredContent?: unknown }) => (result.structuredContent ?? {}) as Record<string, unknown>;

const expectedGate = {
  kind: "payment_required",
  merchant: "mer_test",
  amount: 250,
  currency: "USD",
  sku: "tool.weather",
  payEndpoint: PAY_ENDPOINT,
  productRef: "prd_weather",
};

describe("paywall (MCP)", () => {
  it("an unpaid call returns the gate in structuredContent and as JSON text in content[0], isError, handler not run", async () => {
    const { tool, seen } = setup();
    const result = await tool({ city: "Oslo" }, { requestId: 1 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(expectedGate);
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(expectedGate);
    expect(seen).toHaveLength(0);
  });

  it("the gate omits productRef when none is configured", async () => {
    const { tool } = setup({ productRef: undefined });
    const result = await tool({ city: "Oslo" }, { requestId: 1 });
    expect(result.structuredContent).not.toHaveProperty("productRef");
  });

  it("a paid retry verifies the terms, runs the handler without _servicePayment, and adds the payment block", async () => {
    const { tool, seen, backend, paid } = setup();
    const pi = paid();
    const result = await tool({ city: "Oslo", _servicePayment: { paymentIntentId: pi } } as { city: string }, { requestId: 7 });
    expect(result.isError).toBeFalsy();
    expect(result.payment).toEqual({ status: "paid", paymentIntentId: pi });
    expect(result.structuredContent).toEqual({ forecast: "sunny" });
    expect(seen).toEqual([{ args: { city: "Oslo" }, extra: { requestId: 7 } }]);
    expect(backend.calls).toEqual([{ paymentIntentId: pi, merchantId: "mer_test", amount: 250, currency: "USD", sku: "tool.weather" }]);
  });

  it("the same proof again returns already_redeemed and the handler ran once", async () => {
    const { tool, seen, paid } = setup();
    const args = { city: "Oslo", _servicePayment: { paymentIntentId: paid() } } as { city: string };
    await tool(args, { requestId: 1 });
    const again = await tool(args, { requestId: 2 });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({
      kind: "already_redeemed",
      paymentIntentId: (args as any)._servicePayment.paymentIntentId,
    });
    expect(JSON.parse((again.content[0] as { text: string }).text).kind).toBe("already_redeemed");
    expect(again).not.toHaveProperty("payment");
    expect(seen).toHaveLength(1);
  });

  it("50 concurrent retries with one proof run the handler once", async () => {
    const { tool, seen, paid } = setup();
    const args = { city: "Oslo", _servicePayment: { paymentIntentId: paid() } } as { city: string };
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => tool(args, { requestId: i })));
    expect(results.filter((r) => "payment" in r)).toHaveLength(1);
    expect(results.filter((r) => sc(r).kind === "already_redeemed")).toHaveLength(49);
    expect(seen).toHaveLength(1);
  });

  it("a handler that throws: isError with its message, the payment refunded through the refund option's service (its key, Idempotency-Key paywall-failure:<pi>), still redeemed", async () => {
    const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      sent.push({ url, headers: init.headers as Record<string, string>, body: JSON.parse(init.body as string) });
      return Response.json({ id: "re_123", object: "refund", status: "succeeded", amount: 250 }, { status: 201 });
    };
    const backend = new FakePaywallBackend();
    const tool = paywall({
      backend,
      consumed: inMemoryConsumedStore(),
      ...terms,
      refund: { baseUrl: "http://service.test/", apiKey: "sk_test_x", fetch },
    })(async () => {
      throw new Error("upstream exploded");
    });
    const pi = backend.pay("pi_fails", { merchantId: "mer_test", amount: 250, currency: "USD", sku: "tool.weather" });
    const args = { city: "Oslo", _servicePayment: { paymentIntentId: pi } } as { city: string };
    const result = await tool(args, {});
    expect(result).toEqual({
      content: [
        { type: "text", text: "upstream exploded" },
        { type: "text", text: expect.stringContaining("payment pi_fails was refunded (re_123)") },
      ],
      isError: true,
      payment: { status: "refunded", paymentIntentId: pi, refundId: "re_123" },
    });
    expect(sent).toEqual([
      {
        url: "http://service.test/v1/refunds",
        headers: expect.objectContaining({ Authorization: "Bearer sk_test_x", "Idempotency-Key": "paywall-failure:pi_fails" }),
        body: { paymentIntentId: pi, reason: "paywall: the paid call failed" },
      },
    ]);
    expect(sc(await tool(args, {})).kind).toBe("already_redeemed");
    expect(sent).toHaveLength(1);
  });

  it("a handler that throws with no service to refund through: refund_failed (refund_not_configured), logged, never thrown", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const backend = new FakePaywallBackend();
      const tool = paywall({ backend, consumed: inMemoryConsumedStore(), ...terms })(async () => {
        throw "not even an Error";
      });
      const pi = backend.pay("pi_nowhere", { merchantId: "mer_test", amount: 250, currency: "USD", sku: "tool.weather" });
      const result = await tool({ city: "Oslo", _servicePayment: { paymentIntentId: pi } } as { city: string }, {});
      expect(result.isError).toBe(true);
      expect(result.content[0]).toEqual({ type: "text", text: "not even an Error" });
      expect(result.payment).toEqual({
        status: "refund_failed",
        paymentIntentId: pi,
        error: { code: "refund_not_configured", message: expect.any(String) },
      });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("pi_nowhere"));
    } finally {
      warn.mockRestore();
    }
  });

  it.each(REASON_CODES)(
    "a proof failing verification with %s returns the gate with that reasonCode; the proof is not consumed",
    async (reasonCode) => {
      const { tool, seen, backend, consumed } = setup();
      const pi = backend.refuse(`pi_${reasonCode}`, reasonCode);
      const result = await tool({ city: "Oslo", _servicePayment: { paymentIntentId: pi } } as { city: string }, { requestId: 1 });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({ ...expectedGate, reasonCode });
      expect(seen).toHaveLength(0);
      expect(consumed.size).toBe(0);
    },
  );

  it("real mismatches come back as reason codes (wrong sku, too little, other currency)", async () => {
    const { tool, backend } = setup();
    const cases = [
      [backend.pay("pi_sku", { merchantId: "mer_test", amount: 250, currency: "USD", sku: "tool.other" }), "reference_mismatch"],
      [backend.pay("pi_merchant", { merchantId: "mer_other", amount: 250, currency: "USD", sku: "tool.weather" }), "reference_mismatch"],
      [backend.pay("pi_amount", { merchantId: "mer_test", amount: 100, currency: "USD", sku: "tool.weather" }), "insufficient_amount"],
      [backend.pay("pi_currency", { merchantId: "mer_test", amount: 250, currency: "EUR", sku: "tool.weather" }), "currency_mismatch"],
      ["pi_unknown", "not_found"],
    ];
    for (const [pi, reasonCode] of cases) {
      const result = await tool({ city: "Oslo", _servicePayment: { paymentIntentId: pi } } as { city: string }, { requestId: 1 });
      expect(sc(result).reasonCode).toBe(reasonCode);
    }
  });

  it("a malformed proof gets the gate with not_found, without calling the backend", async () => {
    const { tool, backend } = setup();
    for (const proof of [{}, { paymentIntentId: 42 }, { paymentIntentId: "" }, 17]) {
      const result = await tool({ city: "Oslo", _servicePayment: proof } as unknown as { city: string }, { requestId: 1 });
      expect(result.structuredContent).toEqual({ ...expectedGate, reasonCode: "not_found" });
    }
    expect(backend.calls).toHaveLength(0);
  });

  it("construction fails without a consumed store, in every environment, and on invalid terms", () => {
    const backend = new FakePaywallBackend();
    const consumed = inMemoryConsumedStore();
    try {
      for (const env of ["development", "test", "production"]) {
        vi.stubEnv("NODE_ENV", env);
        expect(() => paywall({ backend, ...terms } as unknown as PaywallOptions)).toThrow(/consumed/);
        expect(() => paywall({ backend, consumed: {} as never, ...terms })).toThrow(/consumed/);
      }
    } finally {
      vi.unstubAllEnvs();
    }
    for (const bad of [
      { price: 0 },
      { price: 2.5 },
      { price: -1 },
      { price: "250" },
      { currency: "dollars" },
      { currency: "" },
      { sku: "" },
      { merchantId: "" },
      { productRef: "weather" },
    ]) {
      expect(() => paywall({ backend, consumed, ...terms, ...(bad as object) })).toThrow(TypeError);
    }
    expect(() => paywall({ consumed, ...terms } as unknown as PaywallOptions)).toThrow(/backend/);
  });

  it("works inside an official McpServer, driven by the official MCP Client", async () => {
    const { backend, paid } = setup();
    let runs = 0;
    const server = new McpServer({ name: "paid-tools", version: "1.0.0" });
    server.registerTool(
      "weather",
      { inputSchema: { city: z.string(), _servicePayment: z.object({ paymentIntentId: z.string() }).optional() } },
      paywall({ backend, consumed: inMemoryConsumedStore(), ...terms })(async ({ city }) => {
        runs++;
        return { content: [{ type: "text", text: `Sunny in ${city}` }] };
      }),
    );
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "agent", version: "1.0.0" });
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    try {
      const gate = await client.callTool({ name: "weather", arguments: { city: "Oslo" } });
      expect(gate.isError).toBe(true);
      expect(gate.structuredContent).toEqual(expectedGate);

      const pi = paid();
      const ok = await client.callTool({ name: "weather", arguments: { city: "Oslo", _servicePayment: { paymentIntentId: pi } } });
      expect(ok.payment).toEqual({ status: "paid", paymentIntentId: pi });
      expect(ok.content).toEqual([{ type: "text", text: "Sunny in Oslo" }]);

      const again = await client.callTool({ name: "weather", arguments: { city: "Oslo", _servicePayment: { paymentIntentId: pi } } });
      expect(again.structuredContent).toMatchObject({ kind: "already_redeemed" });
      expect(runs).toBe(1);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
