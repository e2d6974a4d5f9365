// paywall()'s standard MCP transports (docs/sdk.md "MPP and x402 over MCP"), with a rail of this test's own (the
// `mpp` option takes any McpRailFactory): what paywall() does with a rail's answers, with no service. The real rails
// (mppx's server + POST /mpp/verify, the x402 facilitator) are tested end to end in
// tests/http/mcp-paid-transports.http.test.ts.
import { describe, expect, it, vi } from "vitest";
import {
  inMemoryConsumedStore,
  paywall,
  paywallHttp,
  serviceConsumedStore,
  UptoOverMcpError,
  type McpPaymentRail,
  type McpRailOutcome,
  type PaywallOptions,
} from "agent-payments-sdk";
import { FakePaywallBackend } from "./support";

const terms = { merchantId: "mer_test", price: 250, currency: "usd", sku: "tool.weather" };
const PAID_META = { "test/receipt": { ok: true } };

function fakeRail(settle: (payment: unknown) => Promise<McpRailOutcome>, mode: "test" | "live" | null = null) {
  const refund = vi.fn(async (paymentIntentId: string) => ({ status: "refunded" as const, paymentIntentId, refundId: "re_1" }));
  const rail: McpPaymentRail = {
    name: "testrail",
    credentialKey: "test/payment",
    requiredKey: "test/payment-required",
    paymentRequired: async () => ({ "test/payment-required": { price: 250 } }),
    settle: vi.fn(settle),
    refunds: { refund, refundedAfterFailure: async () => false },
    mode,
  };
  return rail;
}

function setup(rail: McpPaymentRail, overrides: Partial<PaywallOptions> = {}) {
  const backend = new FakePaywallBackend();
  const runs: unknown[] = [];
  let fail = false;
  const tool = paywall({ backend, consumed: inMemoryConsumedStore(), ...terms, mpp: () => rail, ...overrides })(async (args: {
    city: string;
  }) => {
    runs.push(args);
    if (fail) throw new Error("the weather feed is down");
    return { content: [{ type: "text" as const, text: `Sunny in ${args.city}` }], _meta: { own: 1 } };
  });
  return { tool, runs, backend, failNext: () => (fail = true) };
}

const paidOutcome = async (): Promise<McpRailOutcome> => ({ kind: "paid", paymentIntentId: "pi_rail1", meta: PAID_META });
/** structuredContent of any result, for assertions. */
const sc = (result: object) => (result as { structuredContent?: unknown }).structuredContent;
const withPayment = (payment: unknown) => ({ _meta: { "test/payment": payment } });

describe("paywall() with a standard MCP transport", () => {
  it("the unpaid call's gate carries the rail's terms in _meta and a line naming where the payment goes", async () => {
    const { tool, runs } = setup(fakeRail(paidOutcome));
    const result = await tool({ city: "Oslo" }, {});
    expect(result.isError).toBe(true);
    expect(sc(result)).toMatchObject({ kind: "payment_required", amount: 250, sku: "tool.weather" });
    expect(result._meta).toEqual({ "test/payment-required": { price: 250 } });
    expect(result.content.at(-1)?.text).toContain('_meta["test/payment"]');
    expect(runs).toHaveLength(0);
  });

  it("without rails the gate has no _meta (unchanged)", async () => {
    const { tool } = setup(fakeRail(paidOutcome), { mpp: undefined });
    expect((await tool({ city: "Oslo" }, {}))._meta).toBeUndefined();
  });

  it("a rail whose terms cannot be had is left out; the gate stands", async () => {
    const rail = fakeRail(paidOutcome);
    rail.paymentRequired = async () => {
      throw new Error("service down");
    };
    const result = await setup(rail).tool({ city: "Oslo" }, {});
    expect(sc(result)).toMatchObject({ kind: "payment_required" });
    expect(result._meta).toEqual({});
  });

  it("paid: settled, redeemed once, the handler runs with its arguments; the rail's meta merged; the same payment again -> already_redeemed", async () => {
    const rail = fakeRail(paidOutcome);
    const { tool, runs } = setup(rail);
    const paid = await tool({ city: "Oslo" }, withPayment({ sig: "x" }));
    expect(paid.isError).toBeFalsy();
    expect(paid.payment).toEqual({ status: "paid", paymentIntentId: "pi_rail1" });
    expect(paid._meta).toEqual({ own: 1, ...PAID_META });
    expect(runs).toEqual([{ city: "Oslo" }]);
    expect(rail.settle).toHaveBeenCalledWith({ sig: "x" }, { "test/payment": { sig: "x" } });

    const again = await tool({ city: "Oslo" }, withPayment({ sig: "x" }));
    expect(sc(again)).toMatchObject({ kind: "already_redeemed", paymentIntentId: "pi_rail1" });
    expect(again._meta).toBeUndefined();
    expect(runs).toHaveLength(1);
  });

  it("refused: the gate with the rail's own refusal meta and a line saying why; the handler does not run", async () => {
    const refused = async (): Promise<McpRailOutcome> => ({
      kind: "refused",
      reason: "invalid_signature",
      message: "bad",
      meta: { "test/payment-required": { price: 250, error: "invalid_signature" } },
    });
    const { tool, runs } = setup(fakeRail(refused));
    const result = await tool({ city: "Oslo" }, withPayment({ sig: "forged" }));
    expect(sc(result)).toMatchObject({ kind: "payment_required" });
    expect(sc(result)).not.toHaveProperty("reasonCode");
    expect(result._meta).toEqual({ "test/payment-required": { price: 250, error: "invalid_signature" } });
    expect(result.content.map((c) => c.text).join(" ")).toContain("The testrail payment was refused (invalid_signature): bad");
    expect(runs).toHaveLength(0);
  });

  it("pending: payment_pending, nothing to pay again, the handler does not run", async () => {
    const pending = async (): Promise<McpRailOutcome> => ({
      kind: "pending",
      message: "send the same payment again shortly",
      details: { reason: "settlement_pending", transaction: "0xabc" },
    });
    const { tool, runs } = setup(fakeRail(pending));
    const result = await tool({ city: "Oslo" }, withPayment({ sig: "x" }));
    expect(result.isError).toBe(true);
    expect(sc(result)).toEqual({ kind: "payment_pending", reason: "settlement_pending", transaction: "0xabc" });
    expect(result._meta).toBeUndefined();
    expect(runs).toHaveLength(0);
  });

  it("the service unreachable: the call fails saying the payment was not used", async () => {
    const { tool } = setup(
      fakeRail(async () => {
        throw new Error("ECONNREFUSED");
      }),
    );
    await expect(tool({ city: "Oslo" }, withPayment({ sig: "x" }))).rejects.toThrow(/could not be checked; it was not used/);
  });

  it("settled but the store unreachable: the call fails naming the PaymentIntent to send again", async () => {
    const rail = fakeRail(paidOutcome);
    const store = { consume: async () => Promise.reject(new Error("store down")) };
    const { tool } = setup(rail, { consumed: store });
    await expect(tool({ city: "Oslo" }, withPayment({ sig: "x" }))).rejects.toThrow(/settled \(pi_rail1\) but could not be redeemed/);
  });

  it("the handler throws after a rail payment: refunded through the rail", async () => {
    const rail = fakeRail(paidOutcome);
    const { tool, failNext } = setup(rail);
    failNext();
    const result = await tool({ city: "Oslo" }, withPayment({ sig: "x" }));
    expect(result.isError).toBe(true);
    expect(result.payment).toEqual({ status: "refunded", paymentIntentId: "pi_rail1", refundId: "re_1" });
    expect(rail.refunds.refund).toHaveBeenCalledWith("pi_rail1");
  });

  it("_servicePayment wins over a rail payment: the rail is not asked", async () => {
    const rail = fakeRail(paidOutcome);
    const { tool, backend } = setup(rail);
    backend.pay("pi_service1", { merchantId: "mer_test", amount: 250, currency: "USD", sku: "tool.weather" });
    const result = await tool(
      { city: "Oslo", _servicePayment: { paymentIntentId: "pi_service1" } } as { city: string },
      withPayment({ sig: "x" }),
    );
    expect(result.payment).toEqual({ status: "paid", paymentIntentId: "pi_service1" });
    expect(rail.settle).not.toHaveBeenCalled();
  });

  it("refuses at construction: an mpp option that is not a rail factory, a rail of the other mode than the store", () => {
    const backend = new FakePaywallBackend();
    expect(() => paywall({ backend, consumed: inMemoryConsumedStore(), ...terms, mpp: {} as never })).toThrow(/mppOverMcp/);
    const store = serviceConsumedStore({ baseUrl: "http://127.0.0.1:1", apiKey: "sk_test_abc", merchantId: "mer_test" });
    expect(() => paywall({ backend, consumed: store, ...terms, mpp: () => fakeRail(paidOutcome, "live") })).toThrow(/same mode/);
    expect(() => paywall({ backend, consumed: store, ...terms, x402: { baseUrl: "http://127.0.0.1:1", apiKey: "sk_live_abc" } })).toThrow(
      /x402 key .* same mode/,
    );
    expect(() =>
      paywall({ backend, consumed: store, ...terms, currency: "eur", x402: { baseUrl: "http://127.0.0.1:1", apiKey: "sk_test_abc" } }),
    ).toThrow(/paywall: x402 pays in USDC/);
  });

  it("refuses x402's upto (maxAmount, unitAmount) at construction with UptoOverMcpError: upto is sold over x402 HTTP only", () => {
    const backend = new FakePaywallBackend();
    const x402 = { baseUrl: "http://127.0.0.1:1", apiKey: "sk_test_abc" };
    // Valid usage terms, and half or invalid ones: over MCP the answer is the same, naming the HTTP wrapper.
    for (const upto of [{ maxAmount: 100, unitAmount: 1 }, { maxAmount: 100 }, { unitAmount: 1 }, { maxAmount: 10, unitAmount: 11 }]) {
      let thrown: unknown;
      try {
        paywall({ backend, consumed: inMemoryConsumedStore(), ...terms, x402: { ...x402, ...upto } });
      } catch (err) {
        thrown = err;
      }
      expect(thrown, JSON.stringify(upto)).toBeInstanceOf(UptoOverMcpError);
      expect(thrown).toBeInstanceOf(TypeError); // a configuration mistake, as every other bad option
      expect(thrown).toMatchObject({ name: "UptoOverMcpError", code: "upto_over_mcp", wrapper: "paywall" });
      expect((thrown as Error).message).toMatch(
        /^paywall: x402's upto .* is sold only over x402 HTTP, with paywallHttp\(\); over MCP, x402 is exact/,
      );
    }
    // The same usage terms are paywallHttp()'s to sell; paywall() without them is x402 exact.
    expect(() =>
      paywallHttp({ backend, consumed: inMemoryConsumedStore(), ...terms, x402: { ...x402, maxAmount: 100, unitAmount: 1 } }),
    ).not.toThrow();
    expect(() => paywall({ backend, consumed: inMemoryConsumedStore(), ...terms, x402 })).not.toThrow();
  });
});
