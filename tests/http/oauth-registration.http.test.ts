// Issue 29 item 6: dynamic client registration (RFC 7591) is limited per client IP in a bucket of its own
// (OAUTH_REGISTER_RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS, a 429 in OAuth's error shape), and a client
// nobody authorized within OAUTH_UNUSED_CLIENT_HOURS of its registration is deleted by the tick.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { signUpOverHttp } from "../helpers/dashboard";
import { authorizeUrl, codeFor, pkce, registerClient } from "../helpers/oauth";
import { startTestServer, TEST_CRON_SECRET } from "../helpers/server";

const MAX = 3;
let limited: ServerProcess;
let server: ServerProcess;
let db: pg.Client;

beforeAll(async () => {
  [limited, server] = await Promise.all([
    startTestServer({ OAUTH_REGISTER_RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_MAX: "1000", TRUSTED_PROXY_HOPS: "1" }),
    startTestServer({ SIGNUP_RATE_LIMIT_MAX: "1000", LOGIN_IP_RATE_LIMIT_MAX: "1000" }),
  ]);
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await Promise.all([limited?.stop(), server?.stop()]);
});

function register(ip: string) {
  return fetch(`${limited.url}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": ip },
    body: JSON.stringify({ client_name: "flood", redirect_uris: ["https://app.example/cb"] }),
  });
}

describe("registrations per client IP", () => {
  it(`${MAX} per window from one address, then 429 in OAuth's error shape with Retry-After; other addresses and endpoints unaffected`, async () => {
    const ip = `10.29.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    for (let n = 0; n < MAX; n++) expect((await register(ip)).status).toBe(201);
    const refused = await register(ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    const body = await refused.json();
    expect(body).toEqual({ error: "temporarily_unavailable", error_description: expect.any(String) });
    expect(body.client_id).toBeUndefined();
    // Its own bucket: the address's other OAuth calls still pass, and another address registers.
    const metadata = await fetch(`${limited.url}/.well-known/oauth-authorization-server`, { headers: { "X-Forwarded-For": ip } });
    expect(metadata.status).toBe(200);
    expect((await register(`10.30.0.${Math.floor(Math.random() * 250) + 1}`)).status).toBe(201);
  });
});

describe("never-used clients", () => {
  it("the tick deletes a client nobody authorized within OAUTH_UNUSED_CLIENT_HOURS; a used or young one stays", async () => {
    const session = await signUpOverHttp({ name: "Unused clients" }, server.url);
    const used = await codeFor(session);
    const unused = (await registerClient(server.url)).body;
    const young = (await registerClient(server.url)).body;
    await db.query("UPDATE oauth_clients SET created_at = now() - interval '25 hours' WHERE id = ANY($1)", [
      [used.client.client_id, unused.client_id],
    ]);
    const tick = await fetch(`${server.url}/api/cron/tick`, { headers: { Authorization: `Bearer ${TEST_CRON_SECRET}` } });
    expect(((await tick.json()) as any).oauthUnusedClientsPurged).toBeGreaterThanOrEqual(1);
    const left = await db.query("SELECT id FROM oauth_clients WHERE id = ANY($1)", [
      [used.client.client_id, unused.client_id, young.client_id],
    ]);
    expect(left.rows.map((r) => r.id).sort()).toEqual([used.client.client_id, young.client_id].sort());
    // The deleted client is unknown from now on.
    const authorize = await fetch(
      authorizeUrl(server.url, {
        response_type: "code",
        client_id: unused.client_id,
        redirect_uri: "http://127.0.0.1:9/callback",
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
      }),
      { redirect: "manual" },
    );
    expect(authorize.status).toBe(400);
    expect(((await authorize.json()) as any).error).toBe("invalid_client");
  });
});
