// Transport failures are ServiceError with status 0 and code network_error | timeout | aborted; which
// failures are retried, and the back-off. Local sockets only (no app server).
import { describe, expect, it, afterAll } from "vitest";
import { ServiceClient, ServiceError, backoffDelayMs, isRetryable } from "agent-payments-sdk";
import { startScriptedProxy, type ScriptedProxy } from "../helpers/scripted-proxy";
import { freePort } from "../helpers/server";

const opened: ScriptedProxy[] = [];
afterAll(async () => {
  await Promise.all(opened.map((p) => p.close()));
});

async function hangingServer() {
  const proxy = await startScriptedProxy(null, () => "hang");
  opened.push(proxy);
  return proxy;
}

async function caught(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (err) {
    expect(ServiceError.is(err)).toBe(true);
    return err as ServiceError;
  }
  throw new Error("expected a ServiceError");
}

describe("ServiceClient transport errors", () => {
  it("a closed port is network_error with status 0", async () => {
    const client = new ServiceClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: "sk_test_x", maxRetries: 0 });
    const err = await caught(client.customers.list());
    expect([err.status, err.code]).toEqual([0, "network_error"]);
  });

  it("a server that never answers is timeout with status 0, after the configured retries", async () => {
    const server = await hangingServer();
    const client = new ServiceClient({ baseUrl: server.url, apiKey: "sk_test_x", timeoutMs: 150, maxRetries: 1, initialRetryDelayMs: 10 });
    const started = Date.now();
    const err = await caught(client.customers.create({ name: "slow" }));
    expect([err.status, err.code]).toEqual([0, "timeout"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.seen).toHaveLength(2);
    // The retry carried the same Idempotency-Key.
    expect(server.seen[0].headers["idempotency-key"]).toBeTruthy();
    expect(server.seen[1].headers["idempotency-key"]).toBe(server.seen[0].headers["idempotency-key"]);
  });

  it("a caller's AbortSignal is aborted with status 0, and is never retried", async () => {
    const server = await hangingServer();
    const client = new ServiceClient({ baseUrl: server.url, apiKey: "sk_test_x", timeoutMs: 10_000, maxRetries: 3 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await caught(client.customers.retrieve("cus_1", { signal: controller.signal }));
    expect([err.status, err.code]).toEqual([0, "aborted"]);
    expect(server.seen).toHaveLength(1);
    // Already aborted: fails at once without a request.
    const again = await caught(client.customers.retrieve("cus_1", { signal: AbortSignal.abort() }));
    expect(again.code).toBe("aborted");
    expect(server.seen).toHaveLength(1);
  });

  it("an abort during the back-off wait is aborted too", async () => {
    const proxy = await startScriptedProxy(null, () => ({
      status: 503,
      body: { error: { code: "CIRCUIT_OPEN", message: "open", details: {} } },
    }));
    opened.push(proxy);
    const client = new ServiceClient({ baseUrl: proxy.url, apiKey: "sk_test_x", maxRetries: 5, initialRetryDelayMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await caught(client.balance.retrieve({ signal: controller.signal }));
    expect(err.code).toBe("aborted");
    expect(proxy.seen).toHaveLength(1);
  });

  it("a non-JSON error body still becomes a ServiceError with a code from the status", async () => {
    const proxy = await startScriptedProxy(null, () => ({ status: 502, headers: { "content-type": "text/html" } }));
    opened.push(proxy);
    const client = new ServiceClient({ baseUrl: proxy.url, apiKey: "sk_test_x", maxRetries: 2, initialRetryDelayMs: 1 });
    const err = await caught(client.orders.list());
    expect([err.status, err.code]).toEqual([502, "UPSTREAM_ERROR"]);
    expect(proxy.seen).toHaveLength(3);
  });
});

describe("retry policy", () => {
  const e = (status: number, code = "X", extra: object = {}) => Object.assign(new ServiceError({ code, status, message: "m" }), extra);
  it("retries 409, 429, 502, 503, timeouts and network errors only", () => {
    for (const status of [409, 429, 502, 503]) expect(isRetryable(e(status))).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 410, 500]) expect(isRetryable(e(status))).toBe(false);
    expect(isRetryable(e(0, "timeout"))).toBe(true);
    expect(isRetryable(e(0, "network_error"))).toBe(true);
    expect(isRetryable(e(0, "aborted"))).toBe(false);
    // A stored 409 replayed for the key is final (e.g. capturing an expired checkout).
    expect(isRetryable(new ServiceError({ code: "CONFLICT", status: 409, message: "m", idempotentReplayed: true }))).toBe(false);
  });

  it("back-off is exponential, capped, with jitter in [delay/2, delay]", () => {
    expect(backoffDelayMs(0, 500, 8000, () => 0)).toBe(250);
    expect(backoffDelayMs(0, 500, 8000, () => 1)).toBe(500);
    expect(backoffDelayMs(3, 500, 8000, () => 1)).toBe(4000);
    expect(backoffDelayMs(10, 500, 8000, () => 1)).toBe(8000);
  });

  it("bad options are refused at construction", () => {
    expect(() => new ServiceClient({ baseUrl: "", apiKey: "k" })).toThrow(TypeError);
    expect(() => new ServiceClient({ baseUrl: "http://x", apiKey: "" })).toThrow(TypeError);
    expect(() => new ServiceClient({ baseUrl: "http://x", apiKey: "k", maxRetries: -1 })).toThrow(/maxRetries/);
  });
});
