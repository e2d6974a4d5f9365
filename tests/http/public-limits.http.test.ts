// Issue 16 item 4: every public path (/oauth/*, the /.well-known documents, /mcp, /pay's pages and form,
// /v1/integrations) takes a token from the client IP's bucket, the API's token bucket with its
// RateLimit-* headers, shared by every server process (Postgres buckets): two processes on one database,
// requests alternating between them, refuse the (max+1)th with 429 and Retry-After. TRUSTED_PROXY_HOPS=1
// lets each path use a client address of its own (the entry the trusted proxy appended).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { startTestServer } from "../helpers/server";

const MAX = 4;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  const settings = { RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_MS: "3600000", TRUSTED_PROXY_HOPS: "1" };
  servers = [await startTestServer(settings), await startTestServer(settings)];
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const form = (fields: Record<string, string>) => ({
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

const PATHS: [string, string, { headers?: Record<string, string>; body?: string }][] = [
  ["GET", "/.well-known/oauth-authorization-server", {}],
  ["GET", "/.well-known/oauth-protected-resource", {}],
  ["GET", "/.well-known/oauth-protected-resource/mcp", {}],
  [
    "POST",
    "/oauth/register",
    { headers: { "Content-Type": "application/json" }, body: JSON.stringify({ redirect_uris: ["https://app.example/cb"] }) },
  ],
  ["GET", "/oauth/authorize?client_id=mcpc_x", {}],
  ["POST", "/oauth/authorize", form({ client_id: "mcpc_x" })],
  ["POST", "/oauth/token", form({ grant_type: "refresh_token", refresh_token: "x", client_id: "mcpc_x" })],
  ["POST", "/oauth/revoke", form({ token: "x" })],
  ["POST", "/mcp", { headers: { "Content-Type": "application/json" }, body: "{}" }],
  ["GET", "/v1/integrations", {}],
  // Discovery documents of the A2A merchant agents and AP2 (docs/a2a.md).
  ["GET", "/a2a/mer_doesnotexist00000000000/.well-known/agent-card.json", {}],
  ["GET", "/ap2/mer_doesnotexist00000000000/jwks.json", {}],
  ["GET", "/.well-known/agent-card.json", {}],
  ["POST", "/pay/cs_doesnotexist000000000000/submit", form({ paymentMethod: "pm_card_visa" })],
  // The public pages (proxy.ts): one token per page view.
  ["GET", "/pay/cs_doesnotexist000000000000", {}],
  ["GET", "/pay/paywall?merchant=mer_x&amount=100&currency=usd&sku=s", {}],
  ["GET", "/oauth/consent?client_id=mcpc_x", {}],
];

describe("per-IP limits on public paths, across two server processes", () => {
  it.each(PATHS.map((p, i) => [...p, i] as const))("%s %s", async (method, path, init, i) => {
    const ip = `10.16.${i}.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let n = 0; n < MAX + 2; n++) {
      const server = servers[n % 2];
      const res = await fetch(`${server.url}${path}`, {
        method,
        redirect: "manual",
        headers: { ...init.headers, "X-Forwarded-For": ip, Origin: server.url },
        body: init.body,
      });
      await res.arrayBuffer();
      // The pay form answers a browser: its refusal is a 303 back to the page with error=rate_limited.
      const refused = res.status === 429 || (res.headers.get("location") ?? "").includes("error=rate_limited");
      statuses.push(refused ? 429 : res.status);
      expect(res.headers.get("ratelimit-limit"), `${path} #${n}`).toBe(String(MAX));
      if (n < MAX) expect(res.headers.get("ratelimit-remaining")).toBe(String(MAX - 1 - n));
      if (refused) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(
      statuses.slice(0, MAX).every((s) => s !== 429),
      statuses.join(","),
    ).toBe(true);
    expect(statuses.slice(MAX), statuses.join(",")).toEqual([429, 429]);
    // Another client address is not affected.
    const other = await fetch(`${servers[0].url}${path}`, {
      method,
      redirect: "manual",
      headers: { ...init.headers, "X-Forwarded-For": `10.17.${i}.1`, Origin: servers[0].url },
      body: init.body,
    });
    expect(other.status).not.toBe(429);
  });
});

describe("GET /v1/integrations", () => {
  it("is public and lists what this deployment speaks, at its own addresses", async () => {
    const res = await fetch(`${servers[0].url}/v1/integrations`, { headers: { "X-Forwarded-For": "10.18.0.1" } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.object).toBe("list");
    const mcp = body.data.find((d: any) => d.id === "mcp");
    expect(mcp.endpoints.mcp).toBe(`${servers[0].url}/mcp`);
    expect(mcp.versions).toContain("2025-06-18");
    expect(body.data.find((d: any) => d.id === "webhooks")).toMatchObject({ signature: "stripe-v1" });
    // The protocols on main when this landed, and nothing this deployment does not serve.
    expect(body.data.map((d: any) => d.id).sort()).toEqual(["a2a", "acp", "ap2", "mastercard", "mcp", "mpp", "visa", "webhooks", "x402"]);
    // Every address of mcp and webhooks answers (not a 404); tests/unit/integrations-registry.test.ts checks
    // that a route serves every address of every entry.
    for (const entry of body.data.filter((d: any) => d.id === "mcp" || d.id === "webhooks")) {
      for (const url of Object.values(entry.endpoints) as string[]) {
        const r = await fetch(url, {
          redirect: "manual",
          headers: { "X-Forwarded-For": `10.18.1.${Math.floor(Math.random() * 250) + 1}` },
        });
        expect(r.status, url).not.toBe(404);
      }
    }
  });
});
