// The SDK's paywall with serviceBackend() and serviceConsumedStore() of the same service and key makes ONE
// request per paid call (verify and redeem together), counted by a real HTTP proxy in front of the real
// service; any other store keeps verify, then consume (two requests). Same gates and reason codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { openPaywallCheckout } from "../../lib/paywall/open-paywall-checkout";
import { paywall, paywallHttp, serviceBackend, serviceConsumedStore, type ConsumedStore } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture } from "../helpers/payments";
import { startScriptedProxy, type ScriptedProxy } from "../helpers/scripted-proxy";

let seller: TestMerchant;
let proxy: ScriptedProxy;

beforeAll(async () => {
  seller = await createTestMerchant("One-request seller");
  proxy = await startScriptedProxy(baseUrl(), () => "forward");
});
afterAll(() => proxy?.close());

const TERMS = { price: 30, currency: "usd", sku: "api:report" };

async function paidFor(
  t: { amount: number; currency: string; sku: string } = { amount: 30, currency: "USD", sku: "api:report" },
): Promise<string> {
  const checkout = await transaction((tx) => openPaywallCheckout(tx, { merchantId: seller.merchantId, livemode: false }, t));
  expect((await capture(seller.testKey, checkout.id)).status).toBe(200);
  return checkout.paymentIntentId as string;
}

/** The requests the proxy saw while `work` ran, as "METHOD path". */
async function requestsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const from = proxy.seen.length;
  await work();
  return proxy.seen.slice(from).map((r) => `${r.method} ${r.path}`);
}

function httpPaywall(consumed: ConsumedStore, counter: { runs: number }) {
  const service = { baseUrl: proxy.url, apiKey: seller.testKey };
  return paywallHttp({ backend: serviceBackend(service), consumed, merchantId: seller.merchantId, ...TERMS })(async () => {
    counter.runs++;
    return Response.json({ report: "ok" });
  });
}

const withProof = (paymentIntentId: string) =>
  new Request("http://api.local/report", { headers: { "x-service-payment": paymentIntentId } });

describe("paywall with the service store of the same service: one request per paid call", () => {
  it("paywallHttp: paid -> 200 in one request; reused -> 409 in one; wrong sku -> 402 reference_mismatch in one, not burnt", async () => {
    const counter = { runs: 0 };
    const handler = httpPaywall(
      serviceConsumedStore({ baseUrl: proxy.url, apiKey: seller.testKey, merchantId: seller.merchantId }),
      counter,
    );
    const pi = await paidFor();
    let res!: Response;
    expect(await requestsDuring(async () => (res = await handler(withProof(pi))))).toEqual(["POST /v1/paywall/redemptions"]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ report: "ok", payment: { status: "paid", paymentIntentId: pi } });
    const sent = JSON.parse(proxy.seen.at(-1)!.body);
    expect(sent).toEqual({ paymentIntentId: pi, merchantId: seller.merchantId, amount: 30, currency: "USD", sku: "api:report" });
    expect(proxy.seen.at(-1)!.headers.authorization).toBe(`Bearer ${seller.testKey}`);

    expect(await requestsDuring(async () => (res = await handler(withProof(pi))))).toEqual(["POST /v1/paywall/redemptions"]);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ kind: "already_redeemed", paymentIntentId: pi });

    const otherSku = await paidFor({ amount: 30, currency: "USD", sku: "api:other" });
    expect(await requestsDuring(async () => (res = await handler(withProof(otherSku))))).toEqual(["POST /v1/paywall/redemptions"]);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ kind: "payment_required", sku: "api:report", reasonCode: "reference_mismatch" });
    expect(counter.runs).toBe(1);
    // Not burnt: the seller's plain store can still consume it once.
    expect(
      await serviceConsumedStore({ baseUrl: baseUrl(), apiKey: seller.testKey, merchantId: seller.merchantId }).consume(otherSku),
    ).toBe(true);
  });

  it("paywall() (MCP): each reason code reaches the gate as before, one request each (insufficient_amount: and its refunds)", async () => {
    const service = { baseUrl: proxy.url, apiKey: seller.testKey };
    let runs = 0;
    const tool = paywall({
      backend: serviceBackend(service),
      consumed: serviceConsumedStore({ ...service, merchantId: seller.merchantId }),
      merchantId: seller.merchantId,
      ...TERMS,
    })(async () => {
      runs++;
      return { content: [{ type: "text" as const, text: "done" }] };
    });
    const cases: [string, string][] = [
      [await paidFor({ amount: 29, currency: "USD", sku: "api:report" }), "insufficient_amount"],
      [await paidFor({ amount: 30, currency: "EUR", sku: "api:report" }), "currency_mismatch"],
      ["pi_doesnotexist000000000000", "not_found"],
    ];
    for (const [paymentIntentId, reasonCode] of cases) {
      let result: Awaited<ReturnType<typeof tool>> | undefined;
      // insufficient_amount also reads the payment's refunds: one this paywall made after a failed call means it was
      // redeemed (already_redeemed, docs/sdk.md "When the paid call fails").
      const expected = [
        "POST /v1/paywall/redemptions",
        ...(reasonCode === "insufficient_amount" ? [expect.stringMatching(/^GET \/v1\/refunds\?/)] : []),
      ];
      expect(await requestsDuring(async () => (result = await tool({ _servicePayment: { paymentIntentId } }, {})))).toEqual(expected);
      expect((result as { structuredContent?: unknown }).structuredContent, paymentIntentId).toMatchObject({
        kind: "payment_required",
        reasonCode,
      });
    }
    const pi = await paidFor();
    const paid = await tool({ _servicePayment: { paymentIntentId: pi } }, {});
    expect(paid.payment).toEqual({ status: "paid", paymentIntentId: pi });
    expect(runs).toBe(1);
  });

  it("50 concurrent paid calls with one proof through the one-request path: the handler runs once", async () => {
    const counter = { runs: 0 };
    const handler = httpPaywall(
      serviceConsumedStore({ baseUrl: proxy.url, apiKey: seller.testKey, merchantId: seller.merchantId }),
      counter,
    );
    const pi = await paidFor();
    const statuses = await Promise.all(Array.from({ length: 50 }, () => handler(withProof(pi)).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, ...Array(49).fill(409)]);
    expect(counter.runs).toBe(1);
  });

  it("any other store keeps verify, then consume: two requests", async () => {
    const counter = { runs: 0 };
    const serviceStore = serviceConsumedStore({ baseUrl: proxy.url, apiKey: seller.testKey, merchantId: seller.merchantId });
    const wrapped: ConsumedStore = { consume: (id) => serviceStore.consume(id) };
    const handler = httpPaywall(wrapped, counter);
    const pi = await paidFor();
    let res!: Response;
    expect(await requestsDuring(async () => (res = await handler(withProof(pi))))).toEqual([
      "POST /v1/paywall/verify",
      "POST /v1/paywall/redemptions",
    ]);
    expect(res.status).toBe(200);
    // The same service's store under another address: not the same service as far as the SDK knows.
    const direct = httpPaywall(
      serviceConsumedStore({ baseUrl: baseUrl(), apiKey: seller.testKey, merchantId: seller.merchantId }),
      counter,
    );
    const second = await paidFor();
    expect(await requestsDuring(async () => (res = await direct(withProof(second))))).toEqual(["POST /v1/paywall/verify"]);
    expect(res.status).toBe(200);
    expect(counter.runs).toBe(2);
  });
});
