// Issue 16: the official MCP client (@modelcontextprotocol/sdk, unmodified) connects to /mcp from nothing
// through OAuth 2.1 (401 -> RFC 9728 discovery -> RFC 8414 -> RFC 7591 registration -> consent in the
// dashboard session -> token), lists and calls tools that act for the consenting merchant in the chosen
// mode with the granted scopes; refresh after expiry; a reused refresh token revokes the family.
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardCall, dashboardPage, enrollTwoFactor, type DashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { codeFor, connectWithBearer, connectWithOAuth, HeadlessProvider, tokenRequest } from "../helpers/oauth";
import { startTestServer } from "../helpers/server";
import type { ServerProcess } from "../../scripts/lib/server-process";

const ACCESS_TTL = 4;
let server: ServerProcess;
let base: string;
let merchant: DashboardMerchant;

function errorOf(result: any): { code: string; message: string; details: any } {
  expect(result.isError).toBe(true);
  return JSON.parse(result.content[0].text).error;
}

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_MAX: "100000",
    SIGNUP_RATE_LIMIT_MAX: "1000",
    LOGIN_IP_RATE_LIMIT_MAX: "1000",
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL),
  });
  base = server.url;
  merchant = await dashboardMerchantOn(base, "OAuth MCP merchant");
  // The owner acts in live mode (a live key, a live grant): two-factor sign-in first, as the rule asks.
  await enrollTwoFactor(merchant.session, merchant.csrfToken);
});

afterAll(async () => {
  await server?.stop();
});

/** dashboardMerchant() on this file's own server. */
async function dashboardMerchantOn(at: string, name: string): Promise<DashboardMerchant> {
  const { signUpOverHttp } = await import("../helpers/dashboard");
  const session = await signUpOverHttp({ name }, at);
  const csrfToken = (await dashboardPage(session)).csrfToken!;
  const key = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: { name: "tests" }, csrfToken });
  if (key.status !== 201) throw new Error(`API key: ${key.status} ${JSON.stringify(key.body)}`);
  return { session, csrfToken, key: key.body.secret };
}

describe("the official MCP client with OAuth, from nothing", () => {
  let provider: HeadlessProvider;
  let client: Client;

  it("401 names the protected-resource metadata; discovery documents are served", async () => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ["read", "write"] });
    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
    });
    const bad = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { Authorization: "Bearer aps_at_nope", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("connects (DCR, consent, PKCE, token), lists tools with schemas and annotations", async () => {
    provider = new HeadlessProvider(merchant.session, { mode: "test" });
    client = await connectWithOAuth(base, provider);
    expect(provider.store.client?.client_id).toMatch(/^mcpc_/);
    expect(provider.store.tokens?.token_type).toBe("Bearer");
    expect(provider.store.tokens?.scope).toBe("read write");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        "create_checkout",
        "create_product",
        "create_refund",
        "get_balance",
        "get_checkout",
        "get_meter",
        "get_order",
        "get_payment",
        "list_events",
        "list_failed_deliveries",
        "list_meters",
        "list_orders",
        "list_payments",
        "list_products",
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(typeof tool.annotations?.readOnlyHint).toBe("boolean");
      expect(typeof tool.annotations?.destructiveHint).toBe("boolean");
      expect(typeof tool.annotations?.idempotentHint).toBe("boolean");
    }
    expect(tools.find((t) => t.name === "create_refund")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.find((t) => t.name === "list_orders")?.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys((tools.find((t) => t.name === "create_checkout")!.inputSchema as any).properties)).toContain("idempotencyKey");
  });

  it("callTool creates a checkout (source mcp) that /v1 and the dashboard show", async () => {
    const result: any = await client.callTool({
      name: "create_checkout",
      arguments: { amount: 1999, currency: "usd", description: "via MCP", idempotencyKey: randomUUID() },
    });
    expect(result.isError).toBeFalsy();
    const checkout = result.structuredContent;
    expect(checkout).toMatchObject({ object: "checkout", amount: 1999, currency: "USD", livemode: false, status: "open" });
    expect(checkout.url).toBe(`${base}/pay/${checkout.id}`);
    const viaApi = await call("GET", `/v1/checkouts/${checkout.id}`, { key: merchant.key, base });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.id).toBe(checkout.id);
    const pi = await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: merchant.key, base });
    expect(pi.body.source).toBe("mcp");
    const page = await dashboardPage(merchant.session, "/dashboard/checkouts");
    expect(page.html).toContain(checkout.id);
    // The same tool reads it back, and lists see it.
    const got: any = await client.callTool({ name: "get_checkout", arguments: { id: checkout.id } });
    expect(got.structuredContent.id).toBe(checkout.id);
    const orders: any = await client.callTool({ name: "list_orders", arguments: { source: "mcp" } });
    expect(orders.structuredContent.data.map((o: any) => o.id)).toContain(checkout.orderId);
    const balance: any = await client.callTool({ name: "get_balance", arguments: {} });
    expect(balance.structuredContent).toMatchObject({ object: "balance", livemode: false });
  });

  it("an idempotencyKey makes a retried create_checkout happen once", async () => {
    const key = randomUUID();
    const args = { amount: 500, currency: "usd", idempotencyKey: key };
    const first: any = await client.callTool({ name: "create_checkout", arguments: args });
    const again: any = await client.callTool({ name: "create_checkout", arguments: args });
    expect(again.structuredContent.id).toBe(first.structuredContent.id);
    const other: any = await client.callTool({ name: "create_checkout", arguments: { ...args, amount: 501 } });
    expect(errorOf(other).code).toBe("VALIDATION_ERROR");
  });

  it("tool errors are isError results with the error contract's code", async () => {
    const missing: any = await client.callTool({ name: "get_order", arguments: { id: "ord_doesnotexist0000000000000" } });
    expect(errorOf(missing).code).toBe("NOT_FOUND");
    const invalid: any = await client.callTool({ name: "create_checkout", arguments: { amount: 100 } });
    expect(errorOf(invalid).code).toBe("VALIDATION_ERROR");
  });

  it("refreshes after the access token expires (rotation), and a reused refresh token revokes the family", async () => {
    const before = provider.store.tokens!;
    await new Promise((r) => setTimeout(r, (ACCESS_TTL + 1) * 1000));
    // The expired token is refused ...
    const expired = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${before.access_token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(expired.status).toBe(401);
    // ... and the SDK refreshes by itself on the 401 and carries on.
    const again = await connectWithOAuth(base, provider);
    const listed: any = await again.callTool({ name: "list_orders", arguments: { limit: 1 } });
    expect(listed.isError).toBeFalsy();
    const after = provider.store.tokens!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);

    // The old (rotated) refresh token presented again: invalid_grant, and the whole family is revoked.
    const reuse = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: before.refresh_token,
      client_id: provider.store.client!.client_id,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    const current = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${after.access_token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(current.status).toBe(401);
    const newest = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: after.refresh_token,
      client_id: provider.store.client!.client_id,
    });
    expect(newest.body.error).toBe("invalid_grant");
  });
});

describe("scopes, modes and merchants", () => {
  it("a read-only token sees every tool; calling a money-moving one is the 403 step-up challenge, and reads work", async () => {
    const provider = new HeadlessProvider(merchant.session, { mode: "test", write: false }, "read-only agent");
    await connectWithOAuth(base, provider);
    expect(provider.store.tokens?.scope).toBe("read");
    const token = provider.store.tokens!.access_token;
    // A client without an OAuth provider (a fixed bearer) cannot step up: the transport's error carries the 403.
    const client = await connectWithBearer(base, token);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("create_refund");
    for (const [name, args] of [
      ["create_checkout", { amount: 100, currency: "usd" }],
      ["create_refund", { paymentIntentId: "pi_x" }],
      ["create_product", { name: "x", unitAmount: 1, currency: "usd" }],
    ] as const) {
      await expect(client.callTool({ name, arguments: args })).rejects.toMatchObject({ code: 403 });
      const raw = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
      });
      expect(raw.status).toBe(403);
      expect(raw.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="read write", resource_metadata="/);
      expect((await raw.json()).error).toMatchObject({
        code: "FORBIDDEN",
        details: { reason: "insufficient_scope", requiredScope: "write" },
      });
    }
    const list: any = await client.callTool({ name: "list_payments", arguments: {} });
    expect(list.isError).toBeFalsy();
  });

  it("a test-mode grant cannot see live objects; a live grant sees them", async () => {
    const live = await dashboardCall(merchant.session, "POST", "/api/dashboard/api-keys", {
      body: { name: "live" },
      csrfToken: merchant.csrfToken,
      mode: "live",
    });
    expect(live.status).toBe(201);
    const opened = await call("POST", "/v1/checkouts", { key: live.body.secret, base, body: { amount: 700, currency: "usd" } });
    expect(opened.status).toBe(201);
    const testClient = await connectWithOAuth(base, new HeadlessProvider(merchant.session, { mode: "test" }, "test agent"));
    expect(errorOf(await testClient.callTool({ name: "get_checkout", arguments: { id: opened.body.id } })).code).toBe("NOT_FOUND");
    expect(errorOf(await testClient.callTool({ name: "get_order", arguments: { id: opened.body.orderId } })).code).toBe("NOT_FOUND");
    const testOrders: any = await testClient.callTool({ name: "list_orders", arguments: { limit: 100 } });
    expect(testOrders.structuredContent.data.map((o: any) => o.id)).not.toContain(opened.body.orderId);
    const liveClient = await connectWithOAuth(base, new HeadlessProvider(merchant.session, { mode: "live" }, "live agent"));
    const seen: any = await liveClient.callTool({ name: "get_checkout", arguments: { id: opened.body.id } });
    expect(seen.structuredContent).toMatchObject({ id: opened.body.id, livemode: true });
  });

  it("another merchant's objects are NOT_FOUND to every tool", async () => {
    const other = await dashboardMerchantOn(base, "Other merchant");
    const opened = await call("POST", "/v1/checkouts", { key: other.key, base, body: { amount: 900, currency: "usd" } });
    const product = await call("POST", "/v1/products", {
      key: other.key,
      base,
      body: { name: "Theirs", unitAmount: 100, currency: "usd" },
    });
    const client = await connectWithOAuth(base, new HeadlessProvider(merchant.session, { mode: "test" }, "nosy agent"));
    for (const [name, args] of [
      ["get_checkout", { id: opened.body.id }],
      ["get_order", { id: opened.body.orderId }],
      ["get_payment", { id: opened.body.paymentIntentId }],
      ["create_refund", { paymentIntentId: opened.body.paymentIntentId, idempotencyKey: randomUUID() }],
      ["create_checkout", { items: [{ productId: product.body.id, quantity: 1 }] }],
    ] as const) {
      expect(errorOf(await client.callTool({ name, arguments: args })).code, name).toBe("NOT_FOUND");
    }
    const orders: any = await client.callTool({ name: "list_orders", arguments: { limit: 100 } });
    expect(orders.structuredContent.data.map((o: any) => o.id)).not.toContain(opened.body.orderId);
  });

  it("the merchant's API key is accepted as the bearer (its mode, every scope)", async () => {
    const client = await connectWithBearer(base, merchant.key);
    const made: any = await client.callTool({ name: "create_product", arguments: { name: "Via key", unitAmount: 250, currency: "usd" } });
    expect(made.structuredContent).toMatchObject({ object: "product", name: "Via key", livemode: false });
  });

  it("POST /oauth/revoke of the refresh token ends the grant: the next call is 401", async () => {
    const { client: registered, verifier, redirectUri, code } = await codeFor(merchant.session);
    const tokens = await tokenRequest(base, {
      grant_type: "authorization_code",
      code: code!,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: registered.client_id,
      resource: `${base}/mcp`,
    });
    expect(tokens.status).toBe(200);
    const client = await connectWithBearer(base, tokens.body.access_token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.body.refresh_token, client_id: registered.client_id }),
    });
    expect(revoked.status).toBe(200);
    const after = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.body.access_token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(after.status).toBe(401);
  });
});

describe("DNS-rebinding protection", () => {
  const INITIALIZE = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });

  async function send(headers: Record<string, string>) {
    const http = await import("node:http");
    const url = new URL(base);
    return new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: "/mcp",
          method: "POST",
          headers: {
            Accept: "application/json, text/event-stream",
            "Content-Type": "application/json",
            Authorization: `Bearer ${merchant.key}`,
            ...headers,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(INITIALIZE);
    });
  }

  it("refuses a foreign Host or Origin with 403 and serves this deployment's", async () => {
    const host = new URL(base).host;
    expect(await send({ Host: "evil.example" })).toBe(403);
    expect(await send({ Host: `localhost:${new URL(base).port}` })).toBe(403);
    expect(await send({ Host: host, Origin: "http://evil.example" })).toBe(403);
    expect(await send({ Host: host, Origin: base })).toBe(200);
    expect(await send({ Host: host })).toBe(200);
  });
});
