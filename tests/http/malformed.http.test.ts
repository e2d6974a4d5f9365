// Property: random malformed input across endpoints never produces a 5xx, and every error is in the
// contract's shape. Runs against its own server with a high rate limit so every case reaches the handler.
import net from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

let server: ServerProcess;
let m: TestMerchant;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: "100000", BODY_LIMIT_BYTES: "8192" });
  m = await createTestMerchant();
});
afterAll(() => server.stop());

const ENDPOINTS: [string, string][] = [
  ["POST", "/v1/customers"],
  ["GET", "/v1/customers"],
  ["GET", "/v1/customers/cus_doesnotexist"],
  ["GET", "/v1/customers/%E2%80%AE%00"],
  ["POST", "/v1/nothing-here"],
  // The money paths: a malformed body is refused before anything is opened, charged or metered.
  ["POST", "/v1/checkouts"],
  ["POST", "/v1/refunds"],
  ["POST", "/v1/paywall/verify"],
  ["POST", "/v1/paywall/pay"],
  ["POST", "/v1/paywall/redemptions"],
  ["POST", "/v1/meters"],
  ["POST", "/v1/meters/mtr_doesnotexist/usage"],
  ["POST", "/v1/meters/mtr_doesnotexist/reservations"],
  ["POST", "/v1/meters/mtr_doesnotexist/top-up"],
  // The catalog and shared payment tokens (minting and redeeming move money later or now).
  ["POST", "/v1/products"],
  ["POST", "/v1/products/prd_doesnotexist"],
  ["POST", "/v1/shared_payment_tokens"],
  ["POST", "/v1/shared_payment_tokens/spt_doesnotexist/redeem"],
  ["GET", "/v1/shared_payment_tokens"],
];

const jsonish = fc.oneof(
  fc.string(), // arbitrary text, mostly not JSON
  fc.jsonValue().map((v) => JSON.stringify(v)), // valid JSON of any shape
  fc
    .record({ name: fc.anything(), email: fc.anything(), metadata: fc.anything() }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v) ?? "null"),
  fc
    .record(
      {
        amount: fc.oneof(fc.integer(), fc.double(), fc.bigInt().map(String), fc.anything()),
        currency: fc.oneof(fc.constantFrom("usd", "USD", "eur", ""), fc.string()),
        quantity: fc.oneof(fc.integer(), fc.double(), fc.anything()),
        unitPriceMinor: fc.oneof(fc.integer(), fc.constant(Number.MAX_SAFE_INTEGER), fc.anything()),
        paymentMethod: fc.oneof(fc.constantFrom("pm_card_visa", "cus_x", ""), fc.string()),
        paymentIntentId: fc.oneof(fc.constantFrom("pi_doesnotexist", ""), fc.string()),
        merchantId: fc.oneof(fc.constantFrom("mer_doesnotexist0000"), fc.string()),
        sku: fc.anything(),
        idempotencyKey: fc.anything(),
        prepaid: fc.anything(),
        thresholdMinor: fc.anything(),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v) ?? "null"),
  fc.constantFrom("{", "[1,", '{"name":', "null", "\u0000", '{"a":1}}', "{".repeat(5000), '{"name":"' + "x".repeat(9000) + '"}'),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
);

const queryish = fc.oneof(
  fc.constant(""),
  fc
    .record({ limit: fc.oneof(fc.string(), fc.integer().map(String)), startingAfter: fc.string(), junk: fc.string() }, { requiredKeys: [] })
    .map((q) => `?${new URLSearchParams(q as Record<string, string>)}`),
);

describe("malformed input", () => {
  it("200 random malformed requests get a 4xx in the error shape, never a 5xx", async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        jsonish,
        queryish,
        fc.option(fc.string({ minLength: 0, maxLength: 300 }).filter((s) => /^[\x20-\x7E]*$/.test(s))),
        async ([method, path], body, query, idempotencyKey) => {
          const headers: Record<string, string> = { Authorization: `Bearer ${m.testKey}`, "Content-Type": "application/json" };
          if (idempotencyKey !== null) headers["Idempotency-Key"] = idempotencyKey;
          const res = await fetch(`${server.url}${path}${query}`, { method, headers, body: method === "GET" ? undefined : body });
          const text = await res.text();
          statuses.push(res.status);
          expect(res.status, `${method} ${path}${query} body=${body.slice(0, 80)} -> ${text.slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) {
            const parsed = JSON.parse(text);
            expect(Object.keys(parsed)).toEqual(["error"]);
            expect(typeof parsed.error.code).toBe("string");
            expect(typeof parsed.error.message).toBe("string");
            expect(typeof parsed.error.details).toBe("object");
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
    expect(statuses).toHaveLength(Number(process.env.FUZZ_RUNS ?? 200));
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(20);
  });

  it("a deeply nested body is a 400, not a stack overflow", async () => {
    for (const body of ["[".repeat(3000) + "]".repeat(3000), `{"a":`.repeat(1000) + "1" + "}".repeat(1000)]) {
      const res = await fetch(`${server.url}/v1/customers`, { method: "POST", headers: { Authorization: `Bearer ${m.testKey}` }, body });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("a client that goes away mid-body is a quiet 4xx outcome, never a logged 500", async () => {
    let log = "";
    const collect = (chunk: Buffer) => (log += chunk.toString());
    server.child.stdout!.on("data", collect);
    server.child.stderr!.on("data", collect);
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${m.testKey}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"cut`,
        );
        setTimeout(() => (socket.destroy(), resolve()), 300);
      });
      socket.on("error", reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    server.child.stdout!.off("data", collect);
    server.child.stderr!.off("data", collect);
    expect(log).not.toMatch(/unhandled error|aborted/i);
  });

  it("an oversized body is refused with 400, declared or streamed", async () => {
    const big = JSON.stringify({ name: "x".repeat(10_000) });
    const res = await fetch(`${server.url}/v1/customers`, { method: "POST", headers: { Authorization: `Bearer ${m.testKey}` }, body: big });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/exceeds 8192 bytes/);
  });
});
