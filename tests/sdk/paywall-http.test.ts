// paywallHttp(options)(handler): the single-use paywall over plain HTTP (402 gate, proof in body or header).
import { describe, expect, it } from "vitest";
import {
  inMemoryConsumedStore,
  paywallHttp,
  REASON_CODES,
  serviceConsumedStore,
  ServiceError,
  type PaywallOptions,
} from "agent-payments-sdk";
import { FakePaywallBackend, PAY_ENDPOINT } from "./support";

const terms = { merchantId: "mer_test", price: 99, currency: "EUR", sku: "api.translate" };
const gate = {
  kind: "payment_required",
  merchant: "mer_test",
  amount: 99,
  currency: "EUR",
  sku: "api.translate",
  payEndpoint: PAY_ENDPOINT,
};

function setup(overrides: Partial<PaywallOptions> = {}) {
  const backend = new FakePaywallBackend();
  const seen: unknown[] = [];
  const handler = paywallHttp({ backend, consumed: inMemoryConsumedStore(), ...terms, ...overrides })(async (req) => {
    const body = req.method === "POST" ? await req.json() : null;
    seen.push(body);
    return Response.json({ translated: "bonjour" }, { status: 200, headers: { "x-tool": "translate" } });
  });
  const paid = (id = `pi_${Math.random().toString(36).slice(2)}`) =>
    backend.pay(id, { merchantId: "mer_test", amount: 99, currency: "EUR", sku: "api.translate" });
  return { backend, seen, handler, paid };
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request("http://merchant.test/translate", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("paywallHttp", () => {
  it("an unpaid request gets 402 with the gate as JSON; the handler does not run", async () => {
    const { handler, seen } = setup();
    const res = await handler(post({ text: "hello" }));
    expect(res.status).toBe(402);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual(gate);
    expect(seen).toHaveLength(0);
  });

  it("proof in the JSON body: the handler runs once, sees the body without _servicePayment, and the response gains the payment", async () => {
    const { handler, seen, paid } = setup();
    const pi = paid();
    const res = await handler(post({ text: "hello", _servicePayment: { paymentIntentId: pi } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-tool")).toBe("translate");
    expect(JSON.parse(res.headers.get("x-service-payment-response")!)).toEqual({ status: "paid", paymentIntentId: pi });
    expect(await res.json()).toEqual({ translated: "bonjour", payment: { status: "paid", paymentIntentId: pi } });
    expect(seen).toEqual([{ text: "hello" }]);

    const again = await handler(post({ text: "hello", _servicePayment: { paymentIntentId: pi } }));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ kind: "already_redeemed", paymentIntentId: pi });
    expect(seen).toHaveLength(1);
  });

  it("proof in the x-service-payment header, as JSON or as a bare id (also on GET)", async () => {
    const { handler, paid } = setup();
    const asJson = paid();
    const res = await handler(post({ text: "hi" }, { "x-service-payment": JSON.stringify({ paymentIntentId: asJson }) }));
    expect(res.status).toBe(200);
    const bare = paid();
    const get = await handler(new Request("http://merchant.test/translate?text=hi", { headers: { "x-service-payment": bare } }));
    expect(get.status).toBe(200);
    expect((await get.json()).payment).toEqual({ status: "paid", paymentIntentId: bare });
    const reuse = await handler(new Request("http://merchant.test/translate", { headers: { "x-service-payment": bare } }));
    expect(reuse.status).toBe(409);
  });

  it("with a header proof, a body _servicePayment is still removed before the handler reads the body", async () => {
    const { handler, seen, paid } = setup();
    const pi = paid();
    const res = await handler(post({ text: "hi", _servicePayment: { paymentIntentId: "pi_ignored" } }, { "x-service-payment": pi }));
    expect(res.status).toBe(200);
    expect((await res.json()).payment.paymentIntentId).toBe(pi);
    expect(seen).toEqual([{ text: "hi" }]);
  });

  it.each(REASON_CODES)("a proof failing with %s gets 402 with the reasonCode", async (reasonCode) => {
    const { handler, backend, seen } = setup();
    const pi = backend.refuse(`pi_${reasonCode}`, reasonCode);
    const res = await handler(post({ _servicePayment: { paymentIntentId: pi } }));
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ ...gate, reasonCode });
    expect(seen).toHaveLength(0);
  });

  it("a verifier outage is a 502 in the error shape, and the proof stays usable", async () => {
    const { handler, backend, paid } = setup();
    const pi = paid();
    const verify = backend.verify.bind(backend);
    backend.verify = async () => {
      throw new ServiceError({ code: "network_error", status: 0, message: "down" });
    };
    const res = await handler(post({ _servicePayment: { paymentIntentId: pi } }));
    expect(res.status).toBe(502);
    expect((await res.json()).error.code).toBe("UPSTREAM_ERROR");
    backend.verify = verify;
    expect((await handler(post({ _servicePayment: { paymentIntentId: pi } }))).status).toBe(200);
  });

  it("a non-JSON response passes through untouched apart from the payment header", async () => {
    const backend = new FakePaywallBackend();
    const pi = backend.pay("pi_text", { merchantId: "mer_test", amount: 99, currency: "EUR", sku: "api.translate" });
    const handler = paywallHttp({ backend, consumed: inMemoryConsumedStore(), ...terms })(
      () => new Response("plain text", { status: 201 }),
    );
    const res = await handler(new Request("http://merchant.test/", { headers: { "x-service-payment": pi } }));
    expect(res.status).toBe(201);
    expect(await res.text()).toBe("plain text");
    expect(res.headers.get("x-service-payment-response")).toContain(pi);
  });

  it("construction fails without a consumed store", () => {
    expect(() => paywallHttp({ backend: new FakePaywallBackend(), ...terms } as unknown as PaywallOptions)).toThrow(/consumed/);
  });

  it("x402 redeems in the consumed store: a service store of the other mode than the x402 key fails at construction", () => {
    const service = "http://service.test";
    const store = serviceConsumedStore({ baseUrl: service, apiKey: "sk_test_abc", merchantId: "mer_test" });
    const options = (apiKey: string): PaywallOptions => ({
      backend: new FakePaywallBackend(),
      consumed: store,
      ...terms,
      currency: "usd",
      x402: { baseUrl: service, apiKey },
    });
    expect(() => paywallHttp(options("sk_live_abc"))).toThrow(/same mode/);
    expect(() => paywallHttp(options("rk_live_abc"))).toThrow(/same mode/);
    expect(() => paywallHttp(options("rk_test_abc"))).not.toThrow();
  });
});
