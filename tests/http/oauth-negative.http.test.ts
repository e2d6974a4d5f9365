// Issue 16, negative OAuth cases one by one: each gets the RFC's error and nothing is issued (the code
// cannot be used afterwards either, where the case burns it). Registration and authorization-request
// refusals too: no open redirect for an unknown client or unregistered redirect URI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createHash } from "node:crypto";
import { dashboardPage, enrollTwoFactor, signUpOverHttp, type DashboardSession } from "../helpers/dashboard";
import { SCOPE_DESCRIPTIONS } from "../../lib/oauth/config";
import { authorizeUrl, codeFor, consentPage, pkce, registerClient, tokenRequest } from "../helpers/oauth";
import { startTestServer, TEST_CRON_SECRET } from "../helpers/server";
import type { ServerProcess } from "../../scripts/lib/server-process";

let server: ServerProcess;
let base: string;
let session: DashboardSession;
let db: pg.Client;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: "100000", SIGNUP_RATE_LIMIT_MAX: "1000", LOGIN_IP_RATE_LIMIT_MAX: "1000" });
  base = server.url;
  session = await signUpOverHttp({ name: "OAuth negative" }, base);
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await server?.stop();
});

const codeHash = (code: string) => createHash("sha256").update(code).digest("hex");

/** How many grants (token families) a client holds: a refused exchange must leave none. */
async function grantsOf(clientId: string): Promise<number> {
  return Number((await db.query("SELECT count(*) FROM oauth_grants WHERE client_id = $1", [clientId])).rows[0].count);
}

async function exchange(c: Awaited<ReturnType<typeof codeFor>>, overrides: Record<string, string | undefined> = {}) {
  return tokenRequest(base, {
    grant_type: "authorization_code",
    code: c.code!,
    code_verifier: c.verifier,
    redirect_uri: c.redirectUri,
    client_id: c.client.client_id,
    resource: `${base}/mcp`,
    ...overrides,
  });
}

function expectOAuthError(res: { status: number; body: any; headers: Headers }, error: string, status = 400) {
  expect(res.status).toBe(status);
  expect(res.body.error).toBe(error);
  expect(typeof res.body.error_description).toBe("string");
  expect(res.body.access_token).toBeUndefined();
  expect(res.headers.get("cache-control")).toBe("no-store");
}

describe("token endpoint refusals (RFC 6749 5.2, RFC 7636, RFC 8707)", () => {
  it("the happy path works, so each refusal below is about its one difference", async () => {
    const c = await codeFor(session);
    expect(c.back.searchParams.get("state")).toBe(c.state);
    expect(c.back.searchParams.get("iss")).toBe(base);
    const ok = await exchange(c);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: "Bearer", scope: "read write" });
    expect(ok.body.access_token).toMatch(/^aps_at_/);
    expect(ok.body.refresh_token).toMatch(/^aps_rt_/);
    // Stored hashed only.
    const stored = await db.query("SELECT token_hash FROM oauth_access_tokens WHERE token_hash = $1", [codeHash(ok.body.access_token)]);
    expect(stored.rowCount).toBe(1);
    const plain = await db.query("SELECT 1 FROM oauth_access_tokens WHERE token_hash = $1", [ok.body.access_token]);
    expect(plain.rowCount).toBe(0);
  });

  it("missing PKCE verifier -> invalid_request", async () => {
    const c = await codeFor(session);
    expectOAuthError(await exchange(c, { code_verifier: undefined }), "invalid_request");
    expect(await grantsOf(c.client.client_id)).toBe(0);
  });

  it("wrong PKCE verifier -> invalid_grant, and the code is burnt", async () => {
    const c = await codeFor(session);
    expectOAuthError(await exchange(c, { code_verifier: pkce().verifier }), "invalid_grant");
    expectOAuthError(await exchange(c), "invalid_grant");
    expect(await grantsOf(c.client.client_id)).toBe(0);
  });

  it("a reused code -> invalid_grant, and the tokens issued for it are revoked", async () => {
    const c = await codeFor(session);
    const first = await exchange(c);
    expect(first.status).toBe(200);
    expectOAuthError(await exchange(c), "invalid_grant");
    const mcp = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${first.body.access_token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(mcp.status).toBe(401);
    expectOAuthError(
      await tokenRequest(base, { grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: c.client.client_id }),
      "invalid_grant",
    );
  });

  it("two concurrent exchanges of one code: exactly one wins", async () => {
    const c = await codeFor(session);
    const results = await Promise.all([exchange(c), exchange(c), exchange(c)]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it("redirect_uri different from the authorization request's -> invalid_grant", async () => {
    const c = await codeFor(session);
    expectOAuthError(await exchange(c, { redirect_uri: "http://127.0.0.1:9/other" }), "invalid_grant");
    expect(await grantsOf(c.client.client_id)).toBe(0);
  });

  it("resource other than the one authorized -> invalid_target", async () => {
    const c = await codeFor(session);
    expectOAuthError(await exchange(c, { resource: "https://evil.example/mcp" }), "invalid_target");
    expect(await grantsOf(c.client.client_id)).toBe(0);
  });

  it("an expired code -> invalid_grant", async () => {
    const c = await codeFor(session);
    await db.query("UPDATE oauth_authorization_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1", [
      codeHash(c.code!),
    ]);
    expectOAuthError(await exchange(c), "invalid_grant");
    expect(await grantsOf(c.client.client_id)).toBe(0);
  });

  it("invalid client: unknown, missing, another client's code, a client secret -> invalid_client / invalid_grant", async () => {
    const c = await codeFor(session);
    expectOAuthError(await exchange(c, { client_id: "mcpc_unknown000000000000000000" }), "invalid_client", 401);
    expectOAuthError(await exchange(c, { client_id: undefined }), "invalid_client", 401);
    expectOAuthError(await exchange(c, { client_secret: "x" }), "invalid_client", 401);
    const other = (await registerClient(base)).body;
    expectOAuthError(await exchange(c, { client_id: other.client_id }), "invalid_grant");
    expect(await grantsOf(c.client.client_id)).toBe(0);
    expect(await grantsOf(other.client_id)).toBe(0);
  });

  it("unknown grant types, and the implicit grant, are refused", async () => {
    const client = (await registerClient(base)).body;
    expectOAuthError(
      await tokenRequest(base, { grant_type: "password", client_id: client.client_id, username: "a", password: "b" }),
      "unsupported_grant_type",
    );
    expectOAuthError(await tokenRequest(base, { grant_type: "client_credentials", client_id: client.client_id }), "unsupported_grant_type");
    const json = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code" }),
    });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe("invalid_request");
  });
});

describe("authorization request refusals", () => {
  async function authorize(params: Record<string, string | undefined>) {
    const res = await fetch(authorizeUrl(base, params), { redirect: "manual" });
    const text = await res.text();
    return { status: res.status, location: res.headers.get("location"), body: text ? JSON.parse(text) : null };
  }
  const consentPath = (params: Record<string, string | undefined>) => `/oauth/consent${new URL(authorizeUrl(base, params)).search}`;

  it("a redirect URI not registered (or not exactly) is refused here, never redirected to", async () => {
    const client = (await registerClient(base)).body;
    const { challenge } = pkce();
    for (const redirect_uri of [
      "https://evil.example/callback",
      "http://127.0.0.1:9/callback/",
      "http://127.0.0.1:9/callback?x=1",
      "http://127.0.0.1:9/CALLBACK",
    ]) {
      const res = await authorize({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "s",
      });
      expect(res.status, redirect_uri).toBe(400);
      expect(res.location).toBeNull();
      expect(res.body.error).toBe("invalid_request");
    }
    const unknown = await authorize({
      response_type: "code",
      client_id: "mcpc_nope",
      redirect_uri: "https://evil.example/cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("invalid_client");
    expect(unknown.location).toBeNull();
    // The consent page refuses the same way (no form, no redirect).
    const page = await consentPage(
      session,
      `/oauth/consent?response_type=code&client_id=${client.client_id}&redirect_uri=${encodeURIComponent("https://evil.example/cb")}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    expect(page.status).toBe(200);
    expect(page.csrfToken).toBeNull();
    expect(page.html).toContain("not valid");
  });

  it("no PKCE, plain PKCE, implicit grant, unknown scope, foreign resource: refused here (no redirect) until the consent form's checks passed", async () => {
    const client = (await registerClient(base)).body;
    const { challenge } = pkce();
    const good = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: "http://127.0.0.1:9/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "st-1",
    };
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: undefined }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge_method: undefined }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "read admin" }, "invalid_scope"],
      [{ resource: "https://evil.example/mcp" }, "invalid_target"],
    ];
    for (const [change, error] of cases) {
      // Unauthenticated (GET /oauth/authorize): the RFC's JSON error, never a redirect.
      const res = await authorize({ ...good, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.location, JSON.stringify(change)).toBeNull();
      expect(res.body.error, JSON.stringify(change)).toBe(error);
      // Signed in, the consent page shows the error (no form, no redirect).
      const page = await consentPage(session, consentPath({ ...good, ...change }));
      expect(page.status, JSON.stringify(change)).toBe(200);
      expect(page.location, JSON.stringify(change)).toBeNull();
      expect(page.csrfToken).toBeNull();
      expect(page.html).toContain("not valid");
    }
    // The consent form's POST, once its checks pass (this site's Origin, the session's CSRF token): the error
    // goes back to the client's registered redirect URI with state.
    const csrfToken = (await consentPage(session, consentPath(good))).csrfToken!;
    const decided = await fetch(`${base}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: session.cookie, Origin: base },
      body: new URLSearchParams({ ...good, scope: "read admin", csrf_token: csrfToken, decision: "approve", mode: "test" }),
    });
    expect(decided.status).toBe(303);
    const location = new URL(decided.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:9/callback");
    expect(location.searchParams.get("error")).toBe("invalid_scope");
    expect(location.searchParams.get("state")).toBe("st-1");
    expect(location.searchParams.get("code")).toBeNull();
    // And the good one goes to the consent page.
    expect((await authorize(good)).location).toMatch(/^\/oauth\/consent\?/);
  });

  it("a client registered with an attacker's redirect URI cannot bounce a browser there with a bad request", async () => {
    const client = (await registerClient(base, { redirect_uris: ["https://evil.example/landing"] })).body;
    const bad = {
      response_type: "token",
      client_id: client.client_id,
      redirect_uri: "https://evil.example/landing",
      state: "phish",
    };
    const res = await authorize(bad);
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    const page = await consentPage(session, consentPath(bad));
    expect(page.location).toBeNull();
    expect(page.status).toBe(200);
    // A form posted without the consent page's checks is refused before the request is even read.
    const forged = await fetch(`${base}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: session.cookie, Origin: base },
      body: new URLSearchParams({ ...bad, decision: "deny" }),
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("location")).toBeNull();
  });

  it("denial -> error=access_denied with state, no code", async () => {
    const c = await codeFor(session, { choice: { decision: "deny" } });
    expect(c.back.searchParams.get("error")).toBe("access_denied");
    expect(c.back.searchParams.get("state")).toBe(c.state);
    expect(c.code).toBeNull();
  });

  it("the consent POST needs this site's Origin and the session's CSRF token; signed out it goes to /login", async () => {
    const client = (await registerClient(base)).body;
    const { challenge } = pkce();
    const params = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: "http://127.0.0.1:9/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s",
    });
    const page = await consentPage(session, `/oauth/consent?${params}`);
    expect(page.csrfToken).toBeTruthy();
    const post = (headers: Record<string, string>, extra: Record<string, string>) =>
      fetch(`${base}/oauth/authorize`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ ...Object.fromEntries(params), decision: "approve", mode: "test", ...extra }),
      });
    expect((await post({ Cookie: session.cookie, Origin: "https://evil.example" }, { csrf_token: page.csrfToken! })).status).toBe(403);
    expect((await post({ Cookie: session.cookie, Origin: base }, { csrf_token: "forged" })).status).toBe(403);
    expect((await post({ Cookie: session.cookie, Origin: base }, {})).status).toBe(403);
    const signedOut = await post({ Origin: base }, { csrf_token: page.csrfToken! });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toMatch(/^\/login\?callbackUrl=%2Foauth%2Fconsent%3F/);
    // A signed-out consent page sends the browser through /login and back.
    const anonymous = await fetch(`${base}/oauth/consent?${params}`, { redirect: "manual" });
    expect([303, 307, 308]).toContain(anonymous.status);
    const login = new URL(anonymous.headers.get("location")!, base);
    expect(login.pathname).toBe("/login");
    const back = new URL(login.searchParams.get("callbackUrl")!, base);
    expect(back.pathname).toBe("/oauth/consent");
    expect(Object.fromEntries(back.searchParams)).toEqual(Object.fromEntries(params));
    expect(await dashboardPage(session)).toBeTruthy();
  });
});

describe("the consent screen (issue 29: the registrant's name is not trusted; test mode and the asked scopes preselected)", () => {
  async function consentFor(who: DashboardSession, scope: string | undefined, metadata: Record<string, unknown> = {}) {
    const client = (await registerClient(base, metadata)).body;
    const params = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0],
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      state: "s",
      ...(scope === undefined ? {} : { scope }),
    });
    const page = await consentPage(who, `/oauth/consent?${params}`);
    expect(page.status).toBe(200);
    expect(page.csrfToken).toBeTruthy();
    return page.html;
  }
  /** The <input> tag of that name (and value), whatever the order of its attributes. */
  const input = (html: string, name: string, value?: string) =>
    [...html.matchAll(/<input[^>]*>/g)]
      .map((m) => m[0])
      .find((tag) => tag.includes(`name="${name}"`) && (value === undefined || tag.includes(`value="${value}"`))) ?? null;

  it("names the client as unverified, beside the host its redirect URI sends the browser to", async () => {
    const html = await consentFor(session, "read", { client_name: "Official Bank App", redirect_uris: ["https://evil.example/cb"] });
    expect(html).toContain("Official Bank App");
    expect(html).toContain("(unverified name)");
    expect(html).toContain("evil.example");
    expect(html).not.toMatch(/<h1[^>]*>[^<]*Official Bank App[^<]*to use your account\?<\/h1>/);
  });

  it("preselects test mode, even when the dashboard shows live mode", async () => {
    const owner = await signUpOverHttp({ name: "Live consent" }, base);
    await enrollTwoFactor(owner, (await dashboardPage(owner)).csrfToken!);
    const html = await consentFor({ ...owner, cookie: `${owner.cookie}; aps_dashboard_mode=live` }, "read write");
    expect(input(html, "mode", "live")).not.toBeNull();
    expect(input(html, "mode", "live")).not.toContain("disabled");
    expect(input(html, "mode", "test")).toContain('checked=""');
    expect(input(html, "mode", "live")).not.toContain("checked");
  });

  it("preselects exactly the scopes asked (read when none), and never grants more", async () => {
    const none = await consentFor(session, undefined);
    expect(none).toContain(SCOPE_DESCRIPTIONS.read);
    expect(none).not.toContain(SCOPE_DESCRIPTIONS.write);
    const both = await consentFor(session, "read write");
    expect(input(both, "grant_write")).toContain('checked=""');
    // Asked for write alone: read is neither shown nor granted.
    const writeOnly = await consentFor(session, "write");
    expect(writeOnly).toContain(SCOPE_DESCRIPTIONS.write);
    expect(writeOnly).not.toContain(SCOPE_DESCRIPTIONS.read);
    const c = await codeFor(session, { scope: "write", choice: { write: false } });
    const token = await exchange(c);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe("write");
    const r = await codeFor(session, { scope: "read" });
    expect((await exchange(r)).body.scope).toBe("read");
  });
});

describe("registration refusals (RFC 7591 3.2.2)", () => {
  it.each([
    [{ redirect_uris: ["http://evil.example/cb"] }, "invalid_redirect_uri"],
    [{ redirect_uris: ["https://ok.example/cb#frag"] }, "invalid_redirect_uri"],
    [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
    [{ redirect_uris: [] }, "invalid_redirect_uri"],
    [{ token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
    [{ grant_types: ["implicit"] }, "invalid_client_metadata"],
    [{ response_types: ["token"] }, "invalid_client_metadata"],
    [{ scope: "admin" }, "invalid_client_metadata"],
  ])("%j -> %s", async (metadata, error) => {
    const res = await registerClient(base, metadata);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    expect(res.body.client_id).toBeUndefined();
  });

  it("accepts https, loopback http and private-use schemes, answering 201 with the metadata", async () => {
    const res = await registerClient(base, {
      redirect_uris: ["https://app.example/cb", "http://localhost:8765/cb", "http://[::1]:1/cb", "com.example.app:/oauth"],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      token_endpoint_auth_method: "none",
      redirect_uris: ["https://app.example/cb", "http://localhost:8765/cb", "http://[::1]:1/cb", "com.example.app:/oauth"],
    });
    expect(res.body.client_secret).toBeUndefined();
  });
});

describe("clean-up", () => {
  it("the tick deletes codes and tokens a day past expiry, and keeps a rotated refresh token until then", async () => {
    const c = await codeFor(session);
    const tokens = (await exchange(c)).body;
    const rotated = (
      await tokenRequest(base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: c.client.client_id })
    ).body;
    expect(rotated.access_token).toBeTruthy();
    await db.query("UPDATE oauth_authorization_codes SET expires_at = now() - interval '2 days' WHERE code_hash = $1", [codeHash(c.code!)]);
    await db.query("UPDATE oauth_access_tokens SET expires_at = now() - interval '2 days' WHERE token_hash = $1", [
      codeHash(tokens.access_token),
    ]);
    const tick = await fetch(`${base}/api/cron/tick`, { headers: { Authorization: `Bearer ${TEST_CRON_SECRET}` } });
    expect(((await tick.json()) as any).oauthLeftoversPurged).toBeGreaterThanOrEqual(2);
    expect((await db.query("SELECT 1 FROM oauth_authorization_codes WHERE code_hash = $1", [codeHash(c.code!)])).rowCount).toBe(0);
    expect((await db.query("SELECT 1 FROM oauth_access_tokens WHERE token_hash = $1", [codeHash(tokens.access_token)])).rowCount).toBe(0);
    // The rotated refresh token is still there: presenting it again still revokes the family.
    expect(
      (await db.query("SELECT 1 FROM oauth_refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL", [codeHash(tokens.refresh_token)]))
        .rowCount,
    ).toBe(1);
    expectOAuthError(
      await tokenRequest(base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: c.client.client_id }),
      "invalid_grant",
    );
    expectOAuthError(
      await tokenRequest(base, { grant_type: "refresh_token", refresh_token: rotated.refresh_token, client_id: c.client.client_id }),
      "invalid_grant",
    );
  });
});
