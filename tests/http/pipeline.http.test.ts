// The one request pipeline (lib/http/pipeline.ts) and its compositions: the API key (api), the dashboard session
// (dashboardApi), the per-IP public paths (api public, OAuth, x402, A2A cards) and the protocol paths with their
// own authentication (A2A's JSON-RPC, /mcp) share their steps, so they share what
// callers see: a Request-Id and the RateLimit-* headers on every answer, errors included; the order of checks
// auth -> rate limit -> input; path ids checked before any query; NUL refused in body and query. Each keeps its
// own error shape where its protocol has one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { dashboardCall, dashboardMerchant, type DashboardMerchant } from "../helpers/dashboard";
import { baseUrl, call } from "../helpers/http";
import { startTestServer } from "../helpers/server";

let m: DashboardMerchant;
// Requests without a credential take tokens from their client address's bucket: they go to a server of their
// own that trusts one proxy hop, from an address of their own, so other files' per-IP buckets are not touched.
let publicServer: ServerProcess;
const ip = `10.22.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

function anonymous(path: string, init: RequestInit = {}) {
  return fetch(`${publicServer.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "X-Forwarded-For": ip } });
}

beforeAll(async () => {
  [m, publicServer] = await Promise.all([dashboardMerchant("Pipeline Pastries"), startTestServer({ TRUSTED_PROXY_HOPS: "1" })]);
});

afterAll(async () => {
  await publicServer?.stop();
});

function expectPipelineHeaders(headers: Headers, label: string) {
  expect(headers.get("request-id"), label).toMatch(/^req_/);
  expect(Number(headers.get("ratelimit-limit")), label).toBeGreaterThan(0);
  expect(headers.get("ratelimit-remaining"), label).not.toBeNull();
}

describe("one pipeline, three compositions", () => {
  it("every composition answers with a Request-Id and the RateLimit-* headers, errors included", async () => {
    const answers: [string, Response][] = [
      ["api secret, 404", await fetch(`${baseUrl()}/v1/customers/cus_doesnotexist`, { headers: { Authorization: `Bearer ${m.key}` } })],
      ["api secret, 401", await anonymous("/v1/customers", { headers: { Authorization: "Bearer sk_test_wrong" } })],
      ["api public", await anonymous("/v1/integrations")],
      ["dashboard CSV", await fetch(`${baseUrl()}/api/dashboard/payments/export`, { headers: { Cookie: m.session.cookie } })],
      ["oauth document", await anonymous("/.well-known/oauth-authorization-server")],
      ["x402, 404", await anonymous("/x402/r/xr_doesnotexist")],
      ["a2a card, 404", await anonymous("/a2a/mer_doesnotexist/.well-known/agent-card.json")],
      ["a2a rpc, 401", await anonymous("/a2a/mer_doesnotexist", { method: "POST", body: "{}" })],
    ];
    for (const [label, res] of answers) {
      await res.arrayBuffer();
      expectPipelineHeaders(res.headers, label);
    }
    const [, , , [, csv]] = answers;
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("cache-control")).toBe("no-store");
  });

  it("checks auth, then input, in the API and the dashboard", async () => {
    const malformed = { rawBody: "{not json", headers: { "Content-Type": "application/json" } };
    const noKey = await anonymous("/v1/customers", { method: "POST", headers: malformed.headers, body: malformed.rawBody });
    expect(noKey.status).toBe(401);
    const badInput = await call("POST", "/v1/customers", { ...malformed, key: m.key });
    expect(badInput.status).toBe(400);
    expect(badInput.body.error.code).toBe("VALIDATION_ERROR");

    const post = (cookie: string | null, csrf: string | null) =>
      fetch(`${baseUrl()}/api/dashboard/products`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Origin: baseUrl(),
          ...(cookie ? { Cookie: cookie } : {}),
          ...(csrf ? { "X-CSRF-Token": csrf } : {}),
        },
        body: "{not json",
      });
    const signedOut = await post(null, null);
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("cache-control")).toBe("no-store");
    expect((await post(m.session.cookie, null)).status).toBe(403);
    const dashboardBadInput = await post(m.session.cookie, m.csrfToken);
    expect(dashboardBadInput.status).toBe(400);
    expect(((await dashboardBadInput.json()) as any).error.code).toBe("VALIDATION_ERROR");
    expectPipelineHeaders(dashboardBadInput.headers, "dashboard 400");
  });

  it("refuses a path id no object could have with 404 before any query, in the API and the dashboard", async () => {
    const api = await call("GET", "/v1/customers/%20", { key: m.key });
    expect(api.status).toBe(404);
    expect(api.body.error.code).toBe("NOT_FOUND");
    const dashboard = await dashboardCall(m.session, "DELETE", "/api/dashboard/products/%20", { body: {}, csrfToken: m.csrfToken });
    expect(dashboard.status).toBe(404);
    expect(dashboard.body.error.code).toBe("NOT_FOUND");
  });

  it("refuses NUL in the query string in the API and the dashboard alike", async () => {
    const api = await call("GET", "/v1/customers?limit=%00", { key: m.key });
    expect(api.status).toBe(400);
    expect(api.body.error.code).toBe("VALIDATION_ERROR");
    const dashboard = await dashboardCall(m.session, "GET", "/api/dashboard/payments/export?status=%00");
    expect(dashboard.status).toBe(400);
    expect(dashboard.body.error.code).toBe("VALIDATION_ERROR");
    expect(dashboard.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps each public protocol's error shape", async () => {
    // OAuth: a body past its limit is the RFC's invalid_request, never cached.
    const token = await anonymous("/oauth/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `grant_type=refresh_token&refresh_token=${"x".repeat(20 * 1024)}`,
    });
    expect(token.status).toBe(400);
    expect(((await token.json()) as any).error).toBe("invalid_request");
    expect(token.headers.get("cache-control")).toBe("no-store");
    expect(token.headers.get("pragma")).toBe("no-cache");
    expectPipelineHeaders(token.headers, "oauth 400");

    // MCP: 401 names the protected-resource metadata; the error contract's code and message.
    const mcp = await anonymous("/mcp", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toContain("resource_metadata=");
    expect(((await mcp.json()) as any).error).toMatchObject({ code: "UNAUTHORIZED", details: {} });
    expectPipelineHeaders(mcp.headers, "mcp 401");

    // A2A: JSON-RPC envelopes.
    const a2a = await anonymous("/a2a/mer_doesnotexist", { method: "POST", body: "{}" });
    expect(a2a.status).toBe(401);
    expect(a2a.headers.get("www-authenticate")).toBe('Bearer realm="a2a"');
    expect(((await a2a.json()) as any).error.code).toBe(-32600);

    // x402: the service's error contract, with the x402 headers exposed to browsers.
    const x402 = await anonymous("/x402/r/xr_doesnotexist");
    expect(x402.status).toBe(404);
    expect(((await x402.json()) as any).error.code).toBe("NOT_FOUND");
    expect(x402.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
  });
});
