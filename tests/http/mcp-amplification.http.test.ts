// Issue 29 item 1, /mcp amplification: the review ran 100 create_checkout tool calls in one POST for one
// rate-limit token. Now: a JSON-RPC batch (an array body) is refused with a JSON-RPC error before the transport
// runs (MCP 2025-06-18 dropped batching); a body over 64 KiB is refused (413, the error shape) before it is
// parsed; every tools/call takes a token from the caller's own bucket (an API key's is the one its /v1 calls
// draw from), whatever client address it comes from; and a principal runs at most
// MCP_MAX_CONCURRENT_CALLS_PER_PRINCIPAL tool calls at once, counted in the database across processes.
// Every request here comes from a loopback address of its own (127.0.x.y), a client IP no other file shares.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { burst } from "../helpers/burst";
import { call } from "../helpers/http";
import { grantWithAccessTokens } from "../helpers/oauth-db";
import { loopbackAddress, postMcp, toolCall, type McpAnswer } from "../helpers/mcp-raw";
import { createTestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

const MAX_CONCURRENT = 3;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  // RATE_LIMIT_MAX stays the default 120; a one-day window makes refill negligible, so the counts are exact.
  const settings = { RATE_LIMIT_WINDOW_MS: "86400000", MCP_MAX_CONCURRENT_CALLS_PER_PRINCIPAL: String(MAX_CONCURRENT) };
  servers = await Promise.all([startTestServer(settings), startTestServer(settings)]);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The checkouts the key's merchant has (in the key's mode). */
async function checkoutsOf(key: string): Promise<unknown[]> {
  const list = await call("GET", "/v1/checkouts?limit=100", { key, base: servers[0].url });
  expect(list.status).toBe(200);
  return list.body.data;
}

/** A tool call that ran and answered a checkout. */
function expectCheckout(answer: McpAnswer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.result.isError).toBeFalsy();
  expect(answer.body.result.structuredContent.object).toBe("checkout");
}

function expectRateLimited(answer: McpAnswer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  expect(answer.body).toEqual({ error: { code: "RATE_LIMITED", message: expect.any(String), details: expect.any(Object) } });
  expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
}

const CHECKOUT = { amount: 1500, currency: "usd" };

describe("/mcp: batches", () => {
  it("an array of 100 tools/call create_checkout is refused with a JSON-RPC error; nothing is created", async () => {
    const m = await createTestMerchant("MCP batch");
    const from = loopbackAddress();
    const batch = Array.from({ length: 100 }, (_, i) => toolCall(i + 1, "create_checkout", { ...CHECKOUT, amount: 1000 + i }));
    const refused = await postMcp(servers[0].url, batch, { key: m.testKey, from });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/batch/i) } });
    // A batch of one is a batch too.
    const one = await postMcp(servers[1].url, [toolCall(1, "create_checkout", CHECKOUT)], { key: m.testKey, from });
    expect(one.body.error.code).toBe(-32600);
    expect(await checkoutsOf(m.testKey)).toEqual([]);
    // The same call on its own runs.
    expectCheckout(await postMcp(servers[0].url, toolCall(1, "create_checkout", CHECKOUT), { key: m.testKey, from }));
    expect(await checkoutsOf(m.testKey)).toHaveLength(1);
  });
});

describe("/mcp: body limit", () => {
  it("a body over 64 KiB is 413 in the error shape, before it is parsed; 64 KiB exactly is served", async () => {
    const m = await createTestMerchant("MCP body limit");
    const from = loopbackAddress();
    const big = toolCall(1, "create_checkout", { ...CHECKOUT, metadata: { pad: "x".repeat(70_000) } });
    const refused = await postMcp(servers[0].url, big, { key: m.testKey, from });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ error: { code: "VALIDATION_ERROR", message: expect.stringMatching(/65536 bytes/), details: {} } });
    // A chunked body that never ends is answered once past the limit (the server stops reading).
    const endless = await postMcp(servers[1].url, "", { key: m.testKey, from, chunkedBytes: 1024 * 1024, timeoutMs: 10_000 });
    expect(endless.status).toBe(413);
    expect(await checkoutsOf(m.testKey)).toEqual([]);
    // Exactly at the limit (the JSON padded with trailing spaces): the transport reads it and the tool runs.
    const text = JSON.stringify(toolCall(2, "create_checkout", CHECKOUT));
    expectCheckout(await postMcp(servers[0].url, text.padEnd(64 * 1024, " "), { key: m.testKey, from }));
  });
});

describe("/mcp: every tools/call takes a token from the caller's bucket", () => {
  it("130 calls with one key from four client IPs: 50 via /v1 and 70 via /mcp pass, then 429; the bucket is the key's", async () => {
    const m = await createTestMerchant("MCP key bucket");
    const started = Date.now();
    const v1 = await burst(50, (i) => call("GET", "/v1/customers", { key: m.testKey, base: servers[i % 2].url }));
    expect(v1.map((r) => r.status)).toEqual(Array(50).fill(200));
    const addresses = [loopbackAddress(), loopbackAddress(), loopbackAddress(), loopbackAddress()];
    // As many at once as the key may run (the concurrency cap is the last test's).
    const mcp = await burst(
      80,
      (i) => postMcp(servers[i % 2].url, toolCall(i + 1, "get_balance"), { key: m.testKey, from: addresses[i % addresses.length] }),
      MAX_CONCURRENT,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    const passed = mcp.filter((a) => a.status === 200);
    expect(passed).toHaveLength(70);
    for (const a of passed) expect(a.body.result.structuredContent.object).toBe("balance");
    const refused = mcp.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(10);
    for (const a of refused) {
      expectRateLimited(a);
      expect(a.body.error.details).toEqual({ retryAfterSeconds: expect.any(Number) }); // the bucket's refusal
      expect(a.headers["ratelimit-remaining"]).toBe("0");
    }
    // /mcp spent the key's bucket: its /v1 calls are refused too.
    expect((await call("GET", "/v1/customers", { key: m.testKey, base: servers[0].url })).status).toBe(429);
    // The addresses were not what refused: another key's tool call from the same address passes.
    const other = await createTestMerchant("MCP other key");
    const fromSameAddress = await postMcp(servers[0].url, toolCall(1, "get_balance"), { key: other.testKey, from: addresses[0] });
    expect(fromSameAddress.status).toBe(200);
  });

  it("an OAuth grant's tokens share the grant's bucket, not the merchant's API key's", async () => {
    const m = await createTestMerchant("MCP grant bucket");
    // Two live access tokens of one grant, as a refresh leaves them.
    const [first, second] = await grantWithAccessTokens(servers[0].url, m.merchantId, 2);
    const addresses = [loopbackAddress(), loopbackAddress(), loopbackAddress()];
    const answers = await burst(
      121,
      (i) => postMcp(servers[0].url, toolCall(i + 1, "get_balance"), { key: i % 2 ? second : first, from: addresses[i % 3] }),
      MAX_CONCURRENT,
    );
    expect(answers.slice(0, 120).map((a) => a.status)).toEqual(Array(120).fill(200));
    expectRateLimited(answers[120]);
    // The merchant's API key has its own bucket, on /mcp and /v1.
    expect((await postMcp(servers[0].url, toolCall(1, "get_balance"), { key: m.testKey, from: addresses[0] })).status).toBe(200);
    expect((await call("GET", "/v1/customers", { key: m.testKey, base: servers[0].url })).status).toBe(200);
  });
});

describe("/mcp: concurrent tool calls per principal", () => {
  it(`${MAX_CONCURRENT + 1} simultaneous slow calls over two processes: one is refused, the others run`, async () => {
    const m = await createTestMerchant("MCP concurrency");
    const from = loopbackAddress();
    // The test holds the merchant's row: a checkout's insert (its foreign key) waits for it, so every call that
    // gets to run stays in flight, holding its slot, until the test lets go.
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    await db.query("BEGIN");
    await db.query("SELECT 1 FROM merchants WHERE id = $1 FOR UPDATE", [m.merchantId]);
    let locked = true;
    try {
      const answered: number[] = [];
      const calls = Array.from({ length: MAX_CONCURRENT + 1 }, (_, i) =>
        postMcp(servers[i % 2].url, toolCall(i + 1, "create_checkout", CHECKOUT), { key: m.testKey, from }).then((a) => {
          answered.push(i);
          return a;
        }),
      );
      const first = await Promise.race([Promise.race(calls), sleep(10_000).then(() => null)]);
      expect(first, "an answer while the calls that run wait for the lock").not.toBeNull();
      expectRateLimited(first!);
      expect(first!.body.error.details).toMatchObject({ reason: "too_many_concurrent_calls", limit: MAX_CONCURRENT });
      await sleep(500);
      expect(answered).toHaveLength(1); // the others still run, holding their slots
      await db.query("COMMIT");
      locked = false;
      const all = await Promise.all(calls);
      expect(all.filter((a) => a.status === 429)).toHaveLength(1);
      all.filter((a) => a.status !== 429).forEach(expectCheckout);
      // Their slots are free again.
      const again = await Promise.all(
        Array.from({ length: MAX_CONCURRENT }, (_, i) =>
          postMcp(servers[i % 2].url, toolCall(i + 1, "create_checkout", CHECKOUT), { key: m.testKey, from }),
        ),
      );
      again.forEach(expectCheckout);
      expect(await checkoutsOf(m.testKey)).toHaveLength(2 * MAX_CONCURRENT);
    } finally {
      if (locked) await db.query("ROLLBACK");
      await db.end();
    }
  });
});
