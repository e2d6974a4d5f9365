// Restricted API keys (docs/restricted-keys.md), against the real server: a key made in the dashboard with
// `checkouts: write` creates a checkout and is refused a refund (403 permission_denied naming refunds); read vs
// write; a refused request claims no Idempotency-Key; /mcp lists only the tools the key may call and refuses the
// others; the protocol paths refuse in their own shapes (x402, ACP, A2A); rolling stops the old secret at once or
// after its grace; revoking; the activity rows; `npm run key:create` prints the contract's JSON and the key works.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/prisma-cli";
import { getDb } from "../../lib/db";
import { RESOURCES } from "../../lib/merchants/permissions";
import { acpCall } from "../helpers/acp";
import { dashboardCall, dashboardMerchant, type DashboardMerchant } from "../helpers/dashboard";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { connectWithBearer } from "../helpers/oauth";
import { redisUrlForTests } from "../helpers/redis";
import { startTestServer } from "../helpers/server";
import { transaction } from "../../lib/db";
import { createScopedApiKey } from "../../lib/merchants/api-keys";
import { normalizePermissions } from "../../lib/merchants/permissions";

let owner: DashboardMerchant;
let merchantId: string;
let other: TestMerchant;

/** A key made in the dashboard (test mode) with these grants; its secret and id. */
async function restrictedKey(permissions: Record<string, string>, name = "agent key"): Promise<{ id: string; secret: string; body: any }> {
  const res = await dashboardCall(owner.session, "POST", "/api/dashboard/api-keys", {
    body: { name, permissions },
    csrfToken: owner.csrfToken,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, secret: res.body.secret, body: res.body };
}

function expectDenied(res: { status: number; body: any }, resource: string, required: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error.code).toBe("FORBIDDEN");
  expect(res.body.error.details).toEqual({ reason: "permission_denied", resource, required });
}

/** A merchant signed up in the dashboard becomes the one whose keys the next tests make (at most 20 active per mode). */
async function newOwner(name: string) {
  owner = await dashboardMerchant(name);
  const key = await getDb().apiKey.findFirstOrThrow({ where: { prefix: owner.key.slice(0, 12), last4: owner.key.slice(-4) } });
  merchantId = key.merchantId;
}

beforeAll(async () => {
  await newOwner("Restricted keys merchant");
  other = await createTestMerchant("Another merchant");
});

afterAll(async () => {
  await getDb().$disconnect();
});

describe("creating a restricted key in the dashboard", () => {
  it("answers the secret once (rk_test_), every resource named, and lists it masked with its permissions", async () => {
    const { id, secret, body } = await restrictedKey({ checkouts: "write", orders: "read" });
    expect(secret).toMatch(/^rk_test_[0-9A-Za-z]{32}$/);
    expect(body).toMatchObject({ id, object: "api_key", type: "restricted", livemode: false, status: "active", last4: secret.slice(-4) });
    expect(Object.keys(body.permissions).sort()).toEqual([...RESOURCES].sort());
    expect(body.permissions).toMatchObject({ checkouts: "write", orders: "read", refunds: "none", mcp: "none", paywall: "none" });
    const stored = await getDb().apiKey.findUniqueOrThrow({ where: { id } });
    expect(stored.secretHash).not.toContain(secret.slice(8));
    expect(stored.permissions).toEqual({ checkouts: "write", orders: "read" });
    const page = await fetch(`${baseUrl()}/dashboard/api-keys`, { headers: { Cookie: owner.session.cookie } });
    const html = await page.text();
    expect(html).toContain(`${secret.slice(0, 12)}…${secret.slice(-4)}`);
    expect(html).not.toContain(secret);
  });

  it("refuses unknown resources, unknown levels and a key that grants nothing (400 VALIDATION_ERROR)", async () => {
    for (const permissions of [{ charges: "write" }, { orders: "admin" }, { orders: "none" }, {}]) {
      const res = await dashboardCall(owner.session, "POST", "/api/dashboard/api-keys", {
        body: { permissions },
        csrfToken: owner.csrfToken,
      });
      expect(res.status, JSON.stringify(permissions)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("enforcement on /v1", () => {
  it("a key with checkouts: write creates and reads a checkout, and gets 403 permission_denied naming refunds on a refund", async () => {
    const { secret } = await restrictedKey({ checkouts: "write" });
    const created = await call("POST", "/v1/checkouts", { key: secret, body: { amount: 1500, currency: "usd" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.livemode).toBe(false);
    expect((await call("GET", `/v1/checkouts/${created.body.id}`, { key: secret })).status).toBe(200);
    expectDenied(
      await call("POST", "/v1/refunds", { key: secret, body: { paymentIntentId: created.body.paymentIntentId } }),
      "refunds",
      "write",
    );
    expectDenied(await call("GET", "/v1/refunds", { key: secret }), "refunds", "read");
    expectDenied(await call("GET", `/v1/orders/${created.body.orderId}`, { key: secret }), "orders", "read");
    expectDenied(await call("GET", "/v1/events/stream", { key: secret }), "events", "read");
  });

  it("read allows GET but not a write", async () => {
    const { secret } = await restrictedKey({ products: "read", paid_resources: "read" });
    expect((await call("GET", "/v1/products", { key: secret })).status).toBe(200);
    expectDenied(
      await call("POST", "/v1/products", { key: secret, body: { name: "Tea", unitAmount: 300, currency: "usd" } }),
      "products",
      "write",
    );
    // The /v1/x402/resources alias is paid_resources, as /v1/paid_resources.
    expect((await call("GET", "/v1/x402/resources", { key: secret })).status).toBe(200);
    expectDenied(
      await call("POST", "/v1/x402/resources", { key: secret, body: { name: "x", amount: 1, currency: "usd", content: {} } }),
      "paid_resources",
      "write",
    );
    expectDenied(await call("POST", "/v1/paywall/verify", { key: secret, body: {} }), "paywall", "write");
  });

  it("refuses before reading the input (403 over 400), after authentication (401) ", async () => {
    const { secret } = await restrictedKey({ orders: "read" });
    expectDenied(await call("POST", "/v1/refunds", { key: secret, rawBody: "{not json" }), "refunds", "write");
    const bogus = `rk_test_${"A".repeat(32)}`;
    expect((await call("POST", "/v1/refunds", { key: bogus, body: {} })).status).toBe(401);
  });

  it("a refused request claims no Idempotency-Key: its replay is refused again, and the key is free for a permitted request", async () => {
    const { secret } = await restrictedKey({ checkouts: "write" });
    const headers = { "Idempotency-Key": randomUUID() };
    const refund = { key: secret, body: { paymentIntentId: "pi_0000000000000000000000000" }, headers };
    expectDenied(await call("POST", "/v1/refunds", refund), "refunds", "write");
    const replay = await call("POST", "/v1/refunds", refund);
    expectDenied(replay, "refunds", "write");
    expect(replay.headers.get("idempotent-replayed")).toBeNull();
    // Had the refusal been stored under this key, another request with it would be 400 (another request's key).
    const checkout = await call("POST", "/v1/checkouts", { key: secret, body: { amount: 700, currency: "usd" }, headers });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    const again = await call("POST", "/v1/checkouts", { key: secret, body: { amount: 700, currency: "usd" }, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(checkout.body.id);
  });

  it("secret keys keep full access", async () => {
    const res = await call("POST", "/v1/refunds", { key: owner.key, body: { paymentIntentId: "pi_0000000000000000000000000" } });
    expect(res.status).toBe(404);
  });
});

const redisUrl = redisUrlForTests();

describe.skipIf(!redisUrl)("with the Redis buckets (authentication step by step)", () => {
  it("refuses the same way, after the rate limit, and claims no Idempotency-Key", async () => {
    const server = await startTestServer({ REDIS_URL: redisUrl! });
    try {
      const scope = { merchantId: other.merchantId, livemode: false };
      const permissions = normalizePermissions({ checkouts: "write" });
      const key = await transaction((tx) => createScopedApiKey(tx, scope, { permissions }, { via: "cli" }));
      const headers = { "Idempotency-Key": randomUUID() };
      const base = server.url;
      const refused = await call("POST", "/v1/refunds", { key: key.secret, body: { orderId: "ord_x" }, headers, base });
      expectDenied(refused, "refunds", "write");
      expect(refused.headers.get("ratelimit-limit")).toBe("120");
      const checkout = await call("POST", "/v1/checkouts", { key: key.secret, body: { amount: 300, currency: "usd" }, headers, base });
      expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    } finally {
      await server.stop();
    }
  });
});

describe("protocol paths", () => {
  it("/x402: a key with x402 read may ask what is supported but not verify or settle (403 in the error contract)", async () => {
    const { secret } = await restrictedKey({ x402: "read" });
    expect((await call("GET", "/x402/supported", { key: secret })).status).toBe(200);
    expectDenied(await call("POST", "/x402/verify", { key: secret, body: {} }), "x402", "write");
    expectDenied(await call("POST", "/x402/settle", { key: secret, body: {} }), "x402", "write");
    const none = await restrictedKey({ checkouts: "write" });
    expectDenied(await call("GET", "/x402/supported", { key: none.secret }), "x402", "read");
  });

  it("/acp: a key without acp write gets ACP's flat error, 403 permission_denied; acp read may retrieve (404 for an unknown session)", async () => {
    const { secret } = await restrictedKey({ checkouts: "write" });
    const refused = await acpCall("POST", "/acp/checkout_sessions", { key: secret, body: { items: [{ id: "prd_x", quantity: 1 }] } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ type: "invalid_request", code: "permission_denied" });
    expect(refused.body.message).toContain("'acp'");
    const reader = await restrictedKey({ acp: "read" });
    const stillRefused = await acpCall("POST", "/acp/checkout_sessions", {
      key: reader.secret,
      body: { items: [{ id: "prd_x", quantity: 1 }] },
    });
    expect(stillRefused.status).toBe(403);
    expect((await acpCall("GET", "/acp/checkout_sessions/cs_00000000000000000000000", { key: reader.secret })).status).toBe(404);
  });

  it("/a2a: a key without a2a gets the JSON-RPC envelope, 403 with data.reason permission_denied; AP2 needs ap2 too", async () => {
    const rpc = (key: string, extensions?: string) =>
      fetch(`${baseUrl()}/a2a/${other.merchantId}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "application/json",
          ...(extensions ? { "A2A-Extensions": extensions } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }),
      });
    const { secret } = await restrictedKey({ checkouts: "write" });
    const refused = await rpc(secret);
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32600, data: { reason: "permission_denied", resource: "a2a", required: "write" } },
    });
    const buyer = await restrictedKey({ a2a: "write" });
    const ap2 = await rpc(buyer.secret, "https://github.com/google-agentic-commerce/ap2/tree/v0.1");
    expect(ap2.status).toBe(403);
    expect((await ap2.json()).error.data).toMatchObject({ resource: "ap2", required: "write" });
    expect((await rpc(buyer.secret)).status).toBe(200); // the SDK's own answer to the empty message
  });
});

describe("/mcp", () => {
  beforeAll(() => newOwner("Restricted keys MCP merchant"));

  function toolError(result: any) {
    expect(result.isError).toBe(true);
    return JSON.parse(result.content[0].text).error;
  }

  it("a restricted key lists only the tools it may call; another is refused with FORBIDDEN permission_denied", async () => {
    const { secret } = await restrictedKey({ checkouts: "write", orders: "read", mcp: "write" });
    const client = await connectWithBearer(baseUrl(), secret);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["create_checkout", "get_checkout", "get_order", "list_orders"]);
    const created: any = await client.callTool({ name: "create_checkout", arguments: { amount: 900, currency: "usd" } });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent.object).toBe("checkout");
    const refused = toolError(await client.callTool({ name: "create_refund", arguments: { orderId: created.structuredContent.orderId } }));
    expect(refused).toMatchObject({ code: "FORBIDDEN", details: { reason: "permission_denied", resource: "refunds", required: "write" } });
    // Refused before any argument is read: a malformed call is refused the same way.
    const malformed = toolError(await client.callTool({ name: "get_balance", arguments: { nonsense: 1 } }));
    expect(malformed.details).toEqual({ reason: "permission_denied", resource: "balance", required: "read" });
    await client.close();
  });

  it("mcp: read allows only read tools; no mcp at all is HTTP 403 permission_denied; secret keys see every tool", async () => {
    const reader = await restrictedKey({ checkouts: "write", mcp: "read" });
    const client = await connectWithBearer(baseUrl(), reader.secret);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_checkout"]);
    const refused = toolError(await client.callTool({ name: "create_checkout", arguments: { amount: 100, currency: "usd" } }));
    expect(refused.details).toEqual({ reason: "permission_denied", resource: "mcp", required: "write" });
    await client.close();

    const outsider = await restrictedKey({ checkouts: "write" });
    const res = await fetch(`${baseUrl()}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${outsider.secret}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({
      code: "FORBIDDEN",
      details: { reason: "permission_denied", resource: "mcp", required: "read" },
    });

    const full = await connectWithBearer(baseUrl(), owner.key);
    expect((await full.listTools()).tools.length).toBe(14);
    await full.close();
  });
});

describe("rolling and revoking", () => {
  beforeAll(() => newOwner("Restricted keys rolling merchant"));

  const roll = (id: string, body: object = {}) =>
    dashboardCall(owner.session, "POST", `/api/dashboard/api-keys/${id}/roll`, { body, csrfToken: owner.csrfToken });

  it("rolled at once: the old secret gets 401 on its next request; the new key has the same settings", async () => {
    const old = await restrictedKey({ checkouts: "write" }, "rolled at once");
    const rolled = await roll(old.id);
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(201);
    expect(rolled.body).toMatchObject({
      name: "rolled at once",
      type: "restricted",
      rolledFromId: old.id,
      permissions: old.body.permissions,
    });
    expect(rolled.body.id).not.toBe(old.id);
    expect(rolled.body.secret).toMatch(/^rk_test_/);
    expect(rolled.body.previous).toMatchObject({ id: old.id, status: "revoked" });
    expect((await call("POST", "/v1/checkouts", { key: old.secret, body: { amount: 100, currency: "usd" } })).status).toBe(401);
    expect((await call("POST", "/v1/checkouts", { key: rolled.body.secret, body: { amount: 100, currency: "usd" } })).status).toBe(201);
    expectDenied(await call("GET", "/v1/refunds", { key: rolled.body.secret }), "refunds", "read");
    expect((await roll(old.id)).status).toBe(409);
  });

  it("rolled with a grace period: the old secret works until it ends, then 401 (also on /mcp); a secret key rolls too", async () => {
    const old = await restrictedKey({ checkouts: "read", mcp: "read" }, "rolled with grace");
    const rolled = await roll(old.id, { expiresInSeconds: 2 });
    expect(rolled.status).toBe(201);
    expect(rolled.body.previous.status).toBe("expiring");
    expect((await call("GET", "/v1/checkouts", { key: old.secret })).status).toBe(200);
    expect((await roll(old.id)).status).toBe(409); // in its grace: roll the replacement instead
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect((await call("GET", "/v1/checkouts", { key: old.secret })).status).toBe(401);
    const mcp = await fetch(`${baseUrl()}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${old.secret}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    expect((await call("GET", "/v1/checkouts", { key: rolled.body.secret })).status).toBe(200);
    expect((await roll(old.id, { expiresInSeconds: 8 * 24 * 3600 })).status).toBe(400);

    const secretKey = await dashboardCall(owner.session, "POST", "/api/dashboard/api-keys", {
      body: { name: "server" },
      csrfToken: owner.csrfToken,
    });
    const rolledSecret = await roll(secretKey.body.id);
    expect(rolledSecret.body).toMatchObject({ type: "secret", permissions: null, name: "server" });
    expect(rolledSecret.body.secret).toMatch(/^sk_test_/);
    expect((await call("GET", "/v1/balance", { key: secretKey.body.secret })).status).toBe(401);
    expect((await call("GET", "/v1/balance", { key: rolledSecret.body.secret })).status).toBe(200);
  });

  it("revoked: 401 at once; created, rolled and revoked are in the activity log with the user, never the secret", async () => {
    const key = await restrictedKey({ balance: "read" }, "to revoke");
    expect((await call("GET", "/v1/balance", { key: key.secret })).status).toBe(200);
    const revoked = await dashboardCall(owner.session, "POST", `/api/dashboard/api-keys/${key.id}/revoke`, {
      body: {},
      csrfToken: owner.csrfToken,
    });
    expect(revoked.status).toBe(200);
    expect((await call("GET", "/v1/balance", { key: key.secret })).status).toBe(401);
    const rows = await getDb().accountActivity.findMany({ where: { merchantId }, orderBy: { createdAt: "asc" } });
    const actions = new Set(rows.map((r) => r.action));
    expect([...actions]).toEqual(expect.arrayContaining(["api_key_created", "api_key_rolled", "api_key_revoked"]));
    const revokedRow = rows.find((r) => r.action === "api_key_revoked" && (r.detail as any).apiKeyId === key.id)!;
    expect(revokedRow.userId).toMatch(/^usr_/);
    expect(JSON.stringify(rows)).not.toMatch(/[sr]k_test_[0-9A-Za-z]{32}/);
  });
});

describe("npm run key:create", () => {
  it("prints { id, secret, permissions } on one line, and the key works as granted", async () => {
    const result = spawnSync(
      "npm",
      [
        "run",
        "-s",
        "key:create",
        "--",
        "--merchant",
        other.merchantId,
        "--mode",
        "test",
        "--permissions",
        "checkouts:write,orders:read",
        "--json",
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env } },
    );
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(Object.keys(created)).toEqual(["id", "secret", "permissions"]);
    expect(created.id).toMatch(/^key_/);
    expect(created.secret).toMatch(/^rk_test_[0-9A-Za-z]{32}$/);
    expect(created.permissions).toMatchObject({ checkouts: "write", orders: "read", refunds: "none" });
    const checkout = await call("POST", "/v1/checkouts", { key: created.secret, body: { amount: 1200, currency: "usd" } });
    expect(checkout.status).toBe(201);
    expect((await call("GET", `/v1/orders/${checkout.body.orderId}`, { key: created.secret })).status).toBe(200);
    expectDenied(await call("POST", "/v1/refunds", { key: created.secret, body: { orderId: checkout.body.orderId } }), "refunds", "write");
    // Another merchant's objects stay 404 (the key is this merchant's).
    expect((await call("GET", `/v1/orders/${checkout.body.orderId}`, { key: owner.key })).status).toBe(404);

    const bad = spawnSync(
      "npm",
      ["run", "-s", "key:create", "--", "--merchant", other.merchantId, "--mode", "test", "--permissions", "charges:write"],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env },
      },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Bad permission");
  });
});
