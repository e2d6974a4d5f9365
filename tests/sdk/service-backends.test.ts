// The HTTP mapping of serviceBackend (paywall verify) and serviceMeteringBackend (/v1/meters) against a
// local stand-in answering as docs/paywall.md describes. (End to end against the real service: to do once the
// paywall and meter endpoints exist.)
import { describe, expect, it } from "vitest";
import { paywallHttp, serviceBackend, serviceConsumedStore, serviceMeteringBackend } from "agent-payments-sdk";
import { stubServices, type ProxyAction, type SeenRequest } from "../helpers/scripted-proxy";

const stub = stubServices();

const body = (req: SeenRequest) => JSON.parse(req.body || "null");

describe("serviceBackend", () => {
  it("POSTs /v1/paywall/verify with the merchant key and maps valid / reasonCode; payEndpoint is /v1/paywall/pay", async () => {
    const server = await stub((req) =>
      body(req).paymentIntentId === "pi_ok"
        ? { status: 200, body: { valid: true, paymentIntent: { id: "pi_ok" } } }
        : { status: 200, body: { valid: false, reasonCode: "reference_mismatch" } },
    );
    const backend = serviceBackend({ baseUrl: `${server.url}/`, apiKey: "sk_test_merchant" });
    expect(backend.payEndpoint).toBe(`${server.url}/v1/paywall/pay`);
    const terms = { merchantId: "mer_1", amount: 25, currency: "USD", sku: "tool.a" };
    expect(await backend.verify({ paymentIntentId: "pi_ok", ...terms })).toEqual({ valid: true });
    expect(await backend.verify({ paymentIntentId: "pi_bad", ...terms })).toEqual({ valid: false, reasonCode: "reference_mismatch" });
    expect(server.seen[0]).toMatchObject({ method: "POST", path: "/v1/paywall/verify" });
    expect(server.seen[0].headers.authorization).toBe("Bearer sk_test_merchant");
    expect(body(server.seen[0])).toEqual({ paymentIntentId: "pi_ok", ...terms });
  });
});

describe("serviceMeteringBackend", () => {
  it("records usage with the idempotencyKey in the body", async () => {
    const server = await stub(() => ({ status: 201, body: { id: "mu_1" } }));
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m" });
    await backend.recordUsage({ meterId: "mtr_1", quantity: 3, unitPriceMinor: 400_000, idempotencyKey: "call-1" });
    expect(server.seen[0]).toMatchObject({ method: "POST", path: "/v1/meters/mtr_1/usage" });
    expect(body(server.seen[0])).toEqual({ quantity: 3, unitPriceMinor: 400_000, idempotencyKey: "call-1" });
  });

  it("reserve -> reservationId; commit and release hit the reservation's paths", async () => {
    const server = await stub((req) =>
      req.path.endsWith("/reservations")
        ? { status: 201, body: { id: "mr_9", status: "held", created: true } }
        : { status: 200, body: { id: "mr_9" } },
    );
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m" });
    expect(await backend.reserve({ meterId: "mtr_1", quantity: 2, unitPriceMinor: 5 })).toEqual({
      ok: true,
      reservationId: "mr_9",
      created: true,
    });
    await backend.commit({ meterId: "mtr_1", reservationId: "mr_9" });
    await backend.release({ meterId: "mtr_1", reservationId: "mr_9" });
    expect(server.seen.map((r) => r.path)).toEqual([
      "/v1/meters/mtr_1/reservations",
      "/v1/meters/mtr_1/reservations/mr_9/commit",
      "/v1/meters/mtr_1/reservations/mr_9/release",
    ]);
    expect(body(server.seen[0])).toEqual({ quantity: 2, unitPriceMinor: 5 });
  });

  it("a 2xx that is not a hold this request created (created false or absent, or not held) is already_used", async () => {
    const answers: ProxyAction[] = [
      { status: 200, body: { id: "mr_1", status: "held", created: false } },
      { status: 201, body: { id: "mr_2", status: "held" } },
      { status: 200, body: { id: "mr_3", status: "committed" } },
      {
        status: 409,
        body: {
          error: {
            code: "CONFLICT",
            message: "used",
            details: { reason: "reservation_already_used", reservationId: "mr_4", status: "released" },
          },
        },
      },
    ];
    let i = 0;
    const server = await stub(() => answers[i++]);
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0 });
    const params = { meterId: "mtr_1", quantity: 1, unitPriceMinor: 5 };
    expect(await backend.reserve(params)).toEqual({ ok: false, reason: "already_used", reservationId: "mr_1", status: "held" });
    expect(await backend.reserve(params)).toEqual({ ok: false, reason: "already_used", reservationId: "mr_2", status: "held" });
    expect(await backend.reserve(params)).toEqual({ ok: false, reason: "already_used", reservationId: "mr_3", status: "committed" });
    expect(await backend.reserve(params)).toMatchObject({ ok: false, reason: "already_used", reservationId: "mr_4", status: "released" });
  });

  it("a refusal for lack of budget (402, or details.reason insufficient_budget) is { ok: false }; other errors throw", async () => {
    const answers: ProxyAction[] = [
      {
        status: 402,
        body: { error: { code: "PAYMENT_DECLINED", message: "budget", details: { reason: "insufficient_budget", budgetBase: 10 } } },
      },
      { status: 409, body: { error: { code: "CONFLICT", message: "budget", details: { reason: "insufficient_budget" } } } },
      { status: 404, body: { error: { code: "NOT_FOUND", message: "no meter", details: {} } } },
    ];
    let i = 0;
    const server = await stub(() => answers[i++]);
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0 });
    const params = { meterId: "mtr_1", quantity: 1, unitPriceMinor: 5 };
    expect(await backend.reserve(params)).toEqual({
      ok: false,
      reason: "insufficient_budget",
      details: { reason: "insufficient_budget", budgetBase: 10 },
    });
    expect((await backend.reserve(params)).ok).toBe(false);
    await expect(backend.reserve(params)).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});

describe("paywall with serviceBackend + serviceConsumedStore: one request only for the same service and key", () => {
  const terms = { merchantId: "mer_1234567890", price: 25, currency: "usd", sku: "tool.a" };
  const answer = (req: SeenRequest): ProxyAction => {
    if (req.path === "/v1/paywall/verify") return { status: 200, body: { valid: true } };
    return { status: 201, body: { redeemed: true } };
  };
  const paidCall = (handler: (req: Request) => Promise<Response>) =>
    handler(new Request("http://api.local/", { headers: { "x-service-payment": "pi_x" } }));

  it("same baseUrl (trailing slash or not) and key: one POST /v1/paywall/redemptions carrying the terms", async () => {
    const server = await stub(answer);
    const handler = paywallHttp({
      ...terms,
      backend: serviceBackend({ baseUrl: `${server.url}/`, apiKey: "sk_test_a" }),
      consumed: serviceConsumedStore({ baseUrl: server.url, apiKey: "sk_test_a", merchantId: terms.merchantId }),
    })(() => new Response("ok"));
    expect((await paidCall(handler)).status).toBe(200);
    expect(server.seen.map((r) => r.path)).toEqual(["/v1/paywall/redemptions"]);
    expect(body(server.seen[0])).toEqual({
      paymentIntentId: "pi_x",
      merchantId: terms.merchantId,
      amount: 25,
      currency: "USD",
      sku: "tool.a",
    });
  });

  it("another key, or another address: verify, then consume", async () => {
    const server = await stub(answer);
    const other = await stub(answer);
    for (const store of [
      serviceConsumedStore({ baseUrl: server.url, apiKey: "sk_test_b", merchantId: terms.merchantId }),
      serviceConsumedStore({ baseUrl: other.url, apiKey: "sk_test_a", merchantId: terms.merchantId }),
    ]) {
      const handler = paywallHttp({ ...terms, backend: serviceBackend({ baseUrl: server.url, apiKey: "sk_test_a" }), consumed: store })(
        () => new Response("ok"),
      );
      expect((await paidCall(handler)).status).toBe(200);
    }
    expect(server.seen.map((r) => `${r.path} ${r.headers.authorization}`)).toEqual([
      "/v1/paywall/verify Bearer sk_test_a",
      "/v1/paywall/redemptions Bearer sk_test_b",
      "/v1/paywall/verify Bearer sk_test_a",
    ]);
    expect(other.seen.map((r) => r.path)).toEqual(["/v1/paywall/redemptions"]);
    expect(body(other.seen[0])).toEqual({ paymentIntentId: "pi_x" });
  });
});
