// The HTTP mapping of serviceBackend (paywall verify) and serviceMeteringBackend (/v1/meters) against a
// local stand-in answering as CONTRACT.md describes. (End to end against the real service: to do once the
// paywall and meter endpoints exist.)
import { afterAll, describe, expect, it } from "vitest";
import { serviceBackend, serviceMeteringBackend } from "../../lib/sdk";
import { startScriptedProxy, type ProxyAction, type ScriptedProxy, type SeenRequest } from "../helpers/scripted-proxy";

const opened: ScriptedProxy[] = [];
afterAll(async () => {
  await Promise.all(opened.map((p) => p.close()));
});

async function stub(answer: (req: SeenRequest) => ProxyAction) {
  const proxy = await startScriptedProxy(null, (_n, req) => answer(req));
  opened.push(proxy);
  return proxy;
}

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
    const server = await stub((req) => (req.path.endsWith("/reservations") ? { status: 201, body: { id: "mr_9", status: "held" } } : { status: 200, body: { id: "mr_9" } }));
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m" });
    expect(await backend.reserve({ meterId: "mtr_1", quantity: 2, unitPriceMinor: 5 })).toEqual({ ok: true, reservationId: "mr_9" });
    await backend.commit({ meterId: "mtr_1", reservationId: "mr_9" });
    await backend.release({ meterId: "mtr_1", reservationId: "mr_9" });
    expect(server.seen.map((r) => r.path)).toEqual(["/v1/meters/mtr_1/reservations", "/v1/meters/mtr_1/reservations/mr_9/commit", "/v1/meters/mtr_1/reservations/mr_9/release"]);
    expect(body(server.seen[0])).toEqual({ quantity: 2, unitPriceMinor: 5 });
  });

  it("a refusal for lack of budget (402, or details.reason insufficient_budget) is { ok: false }; other errors throw", async () => {
    const answers: ProxyAction[] = [
      { status: 402, body: { error: { code: "PAYMENT_DECLINED", message: "budget", details: { reason: "insufficient_budget", budgetBase: 10 } } } },
      { status: 409, body: { error: { code: "CONFLICT", message: "budget", details: { reason: "insufficient_budget" } } } },
      { status: 404, body: { error: { code: "NOT_FOUND", message: "no meter", details: {} } } },
    ];
    let i = 0;
    const server = await stub(() => answers[i++]);
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0 });
    const params = { meterId: "mtr_1", quantity: 1, unitPriceMinor: 5 };
    expect(await backend.reserve(params)).toEqual({ ok: false, reason: "insufficient_budget", details: { reason: "insufficient_budget", budgetBase: 10 } });
    expect((await backend.reserve(params)).ok).toBe(false);
    await expect(backend.reserve(params)).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});
