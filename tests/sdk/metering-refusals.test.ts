// serviceMeteringBackend's reading of the service's refusals (a local stand-in answering as docs/meters.md
// describes): insufficient_budget and meter_past_due are two different refusals, any other 402 is neither
// and throws; the post-paid past-due check reads a meter at most once per TTL (and once for concurrent
// calls), and on every call while it is past due. The real service: tests/sdk/prepaid-topup.http.test.ts.
import { describe, expect, it } from "vitest";
import { meteredPaywall, serviceMeteringBackend, ServiceError } from "agent-payments-sdk";
import { meterStanding } from "../../packages/sdk/src/meter-standing";
import { stubServices, type ProxyAction } from "../helpers/scripted-proxy";

const stub = stubServices();

const declined = (details: Record<string, unknown>): ProxyAction => ({
  status: 402,
  body: { error: { code: "PAYMENT_DECLINED", message: "refused", details } },
});
const budgetRefusal = (url: string) =>
  declined({
    reason: "insufficient_budget",
    meterId: "mtr_1",
    requiredBase: 400_000,
    availableBase: 0,
    topUp: { url, method: "POST", minimumAmountMinor: 3, currency: "USD" },
  });
const pastDueRefusal = (url: string) => declined({ reason: "meter_past_due", meterId: "mtr_1", retryPayment: { url, method: "POST" } });
const meterBody = (status: string) => ({
  status: 200,
  body: { id: "mtr_1", object: "meter", status, currency: "USD", outstandingMinor: status === "past_due" ? 2 : 0 },
});
const params = { meterId: "mtr_1", quantity: 1, unitPriceMinor: 400_000 };

describe("serviceMeteringBackend: refusals", () => {
  it("reserve: insufficient_budget carries topUpUrl and minimumAmountMinor; meter_past_due carries retryPaymentUrl", async () => {
    const answers = [budgetRefusal("http://svc/top-up"), pastDueRefusal("http://svc/retry")];
    let i = 0;
    const server = await stub(() => answers[i++]);
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0 });
    expect(await backend.reserve(params)).toMatchObject({
      ok: false,
      reason: "insufficient_budget",
      topUpUrl: "http://svc/top-up",
      minimumAmountMinor: 3,
    });
    expect(await backend.reserve(params)).toEqual({
      ok: false,
      reason: "meter_past_due",
      retryPaymentUrl: "http://svc/retry",
      details: { reason: "meter_past_due", meterId: "mtr_1", retryPayment: { url: "http://svc/retry", method: "POST" } },
    });
  });

  it("any other 402 (a declined card, no reason, another reason) is neither refusal: it throws its ServiceError", async () => {
    const others = [
      declined({ reason: "generic_decline", declineCode: "generic_decline", paymentIntentId: "pi_1" }),
      declined({}),
      { status: 402, body: {} },
    ];
    for (const answer of others) {
      const server = await stub(() => answer);
      const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0, meterStatusTtlMs: 60_000 });
      const reserveErr = await backend.reserve(params).catch((e: unknown) => e);
      expect(ServiceError.is(reserveErr) && reserveErr.status).toBe(402);
      const usageErr = await backend.recordUsage({ ...params, idempotencyKey: "k" }).catch((e: unknown) => e);
      expect(ServiceError.is(usageErr) && usageErr.status).toBe(402);
    }
  });

  it("through meteredPaywall: another 402 throws from the wrapper (no gate); the handler of a prepaid call does not run", async () => {
    const server = await stub(() => declined({ reason: "generic_decline" }));
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0 });
    let runs = 0;
    const tool = meteredPaywall({ backend, meterId: "mtr_1", unitPriceMinor: 400_000, quantity: () => 1, prepaid: true })(async () => {
      runs++;
      return { content: [] };
    });
    await expect(tool({}, {})).rejects.toMatchObject({ name: "ServiceError", status: 402, code: "PAYMENT_DECLINED" });
    expect(runs).toBe(0);
  });

  it("recordUsage: meter_past_due is returned as the refusal, and the next pastDue() reads the meter again", async () => {
    const server = await stub((req) => (req.method === "GET" ? meterBody("open") : pastDueRefusal("http://svc/retry")));
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0, meterStatusTtlMs: 60_000 });
    expect(await backend.pastDue!("mtr_1")).toBeNull(); // read: open, trusted for a minute
    expect(await backend.recordUsage({ ...params, idempotencyKey: "k" })).toMatchObject({
      ok: false,
      reason: "meter_past_due",
      retryPaymentUrl: "http://svc/retry",
    });
    expect(await backend.pastDue!("mtr_1")).toBeNull(); // the refusal made it read again (the stand-in says open now)
    expect(server.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/meters/mtr_1",
      "POST /v1/meters/mtr_1/usage",
      "GET /v1/meters/mtr_1",
    ]);
  });

  it("pastDue(): a past-due meter read from GET /v1/meters/:id names the outstanding amount and the retry-payment endpoint", async () => {
    const server = await stub(() => meterBody("past_due"));
    const backend = serviceMeteringBackend({ baseUrl: `${server.url}/`, apiKey: "sk_test_m", maxRetries: 0 });
    const url = `${server.url}/v1/meters/mtr_1/retry-payment`;
    expect(await backend.pastDue!("mtr_1")).toEqual({
      ok: false,
      reason: "meter_past_due",
      retryPaymentUrl: url,
      details: { reason: "meter_past_due", meterId: "mtr_1", outstandingMinor: 2, currency: "USD", retryPayment: { url, method: "POST" } },
    });
    await backend.pastDue!("mtr_1"); // past due: read on every call until settled
    expect(server.seen).toHaveLength(2);
  });

  it("post-paid through meteredPaywall: 50 concurrent calls read the meter once, then not again within the TTL", async () => {
    const server = await stub((req) => (req.method === "GET" ? meterBody("open") : { status: 201, body: { id: "mu_1" } }));
    const backend = serviceMeteringBackend({ baseUrl: server.url, apiKey: "sk_test_m", maxRetries: 0 });
    const tool = meteredPaywall<{ k: string }>({
      backend,
      meterId: "mtr_1",
      unitPriceMinor: 400_000,
      quantity: () => 1,
      prepaid: false,
      idempotencyKey: (a) => a.k,
    })(async () => ({ content: [] }));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => tool({ k: `c${i}` }, {})));
    expect(results.every((r) => r.metering?.status === "recorded")).toBe(true);
    await tool({ k: "later" }, {});
    expect(server.seen.filter((r) => r.method === "GET")).toHaveLength(1);
    expect(server.seen.filter((r) => r.method === "POST")).toHaveLength(51);
  });

  it("meterStatusTtlMs must be a non-negative number", () => {
    expect(() => serviceMeteringBackend({ baseUrl: "http://x", apiKey: "sk_test_m", meterStatusTtlMs: -1 })).toThrow(/meterStatusTtlMs/);
  });
});

describe("meterStanding", () => {
  function setup(ttlMs: number) {
    let clock = 0;
    const answers: ("open" | "past_due" | "fail")[] = [];
    const reads: string[] = [];
    const refusal = { ok: false as const, reason: "meter_past_due" as const };
    const standing = meterStanding({
      ttlMs,
      maxEntries: 2,
      now: () => clock,
      read: async (meterId) => {
        reads.push(meterId);
        const answer = answers.shift() ?? "open";
        if (answer === "fail") throw new Error("unreachable");
        return answer === "past_due" ? refusal : null;
      },
    });
    return { standing, answers, reads, refusal, advance: (ms: number) => (clock += ms) };
  }

  it("trusts good standing for ttlMs, then reads again", async () => {
    const { standing, reads, advance } = setup(1_000);
    await standing.pastDue("m");
    advance(999);
    await standing.pastDue("m");
    expect(reads).toHaveLength(1);
    advance(1);
    await standing.pastDue("m");
    expect(reads).toHaveLength(2);
  });

  it("ttlMs 0 reads on every call", async () => {
    const { standing, reads } = setup(0);
    await standing.pastDue("m");
    await standing.pastDue("m");
    expect(reads).toHaveLength(2);
  });

  it("a failed read is not remembered: the error reaches the caller and the next call reads again", async () => {
    const { standing, answers, reads } = setup(1_000);
    answers.push("fail");
    await expect(standing.pastDue("m")).rejects.toThrow("unreachable");
    expect(await standing.pastDue("m")).toBeNull();
    expect(reads).toHaveLength(2);
  });

  it("markPastDue during a read wins over what that read saw", async () => {
    const { standing, reads, refusal } = setup(1_000);
    const inFlight = standing.pastDue("m"); // will say open
    standing.markPastDue("m", refusal);
    expect(await inFlight).toBeNull();
    await standing.pastDue("m"); // still read again: the mark was newer
    expect(reads).toHaveLength(2);
  });

  it("remembers at most maxEntries meters, forgetting the least recently read", async () => {
    const { standing, reads } = setup(1_000);
    await standing.pastDue("a");
    await standing.pastDue("b");
    await standing.pastDue("c"); // "a" is forgotten
    await standing.pastDue("b");
    await standing.pastDue("a");
    expect(reads).toEqual(["a", "b", "c", "a"]);
  });
});
