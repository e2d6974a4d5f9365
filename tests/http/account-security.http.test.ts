// Issue 28, items 3 and 4 (docs/dashboard.md, "Email links"): a password reset ends every way in (dashboard
// sessions, and every OAuth grant of the user with its access and refresh tokens and its unexchanged
// codes), and its mail lists the API keys and webhook endpoints created in the last 30 days; the account
// endpoints take a per-IP token before any password hashing and answer in the error contract, so a flood
// of bad resets is answered 429 while a real sign-in goes through.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { accountCall, authCallback, dashboardCall, dashboardPage, mailedToken, signUpOverHttp } from "../helpers/dashboard";
import { baseUrl } from "../helpers/http";
import { codeFor, tokenRequest } from "../helpers/oauth";
import { startTestServer } from "../helpers/server";

async function query<T = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(text, values)).rows as T[];
  } finally {
    await db.end();
  }
}

/** A code from the consent page exchanged for tokens (the authorization_code grant). */
async function oauthTokens(session: Awaited<ReturnType<typeof signUpOverHttp>>) {
  const c = await codeFor(session);
  const res = await tokenRequest(session.base, {
    grant_type: "authorization_code",
    code: c.code!,
    code_verifier: c.verifier,
    redirect_uri: c.redirectUri,
    client_id: c.client.client_id,
    resource: `${session.base}/mcp`,
  });
  expect(res.status).toBe(200);
  return { clientId: c.client.client_id as string, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

const mcpStatus = async (base: string, token: string) =>
  (
    await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    })
  ).status;

describe("a password reset ends every way in", () => {
  it("OAuth access and refresh tokens issued before it are 401 at /mcp and invalid_grant at /oauth/token; a code approved before it opens nothing", async () => {
    const user = await signUpOverHttp();
    const base = user.base;
    const first = await oauthTokens(user);
    const second = await oauthTokens(user);
    // A code approved before the reset and exchanged after it.
    const pending = await codeFor(user);
    expect(await mcpStatus(base, first.access)).not.toBe(401);
    // The refresh works before (and rotates): the newest refresh token is the one to test after.
    const refreshed = await tokenRequest(base, { grant_type: "refresh_token", refresh_token: second.refresh, client_id: second.clientId });
    expect(refreshed.status).toBe(200);

    expect((await accountCall("forgot-password", { email: user.email }, base)).status).toBe(202);
    const token = (await mailedToken(user.email, "reset_password", base))!;
    expect((await accountCall("reset-password", { token, password: "brand-new-password" }, base)).status).toBe(200);

    for (const access of [first.access, refreshed.body.access_token]) expect(await mcpStatus(base, access)).toBe(401);
    for (const [refresh, clientId] of [
      [first.refresh, first.clientId],
      [refreshed.body.refresh_token, second.clientId],
    ]) {
      const res = await tokenRequest(base, { grant_type: "refresh_token", refresh_token: refresh, client_id: clientId });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_grant");
    }
    const late = await tokenRequest(base, {
      grant_type: "authorization_code",
      code: pending.code!,
      code_verifier: pending.verifier,
      redirect_uri: pending.redirectUri,
      client_id: pending.client.client_id,
      resource: `${base}/mcp`,
    });
    expect([late.status, late.body.error]).toEqual([400, "invalid_grant"]);
    expect(
      await query("SELECT DISTINCT revoked_reason FROM oauth_grants WHERE user_id = (SELECT id FROM users WHERE email = $1)", [user.email]),
    ).toEqual([{ revoked_reason: "password_reset" }]);
    // The dashboard session is over too, and the reset is in the activity log with where it came from.
    expect((await dashboardPage(user)).status).toBe(307);
    const [row] = await query(
      "SELECT action, ip, user_agent, detail FROM account_activity WHERE action = 'password_reset' AND user_id = (SELECT id FROM users WHERE email = $1)",
      [user.email],
    );
    expect(row).toMatchObject({ action: "password_reset", detail: { sessionsEnded: 1, oauthGrantsRevoked: 2 } });
    expect(row.ip).toBeTruthy();
  });

  it("the reset mail lists the keys and webhook endpoints created in the last 30 days, masked, with links to review them", async () => {
    const user = await signUpOverHttp({ name: "Reset list merchant" });
    const csrfToken = (await dashboardPage(user)).csrfToken!;
    const key = await dashboardCall(user, "POST", "/api/dashboard/api-keys", { body: { name: "left by https://evil.example" }, csrfToken });
    expect(key.status).toBe(201);
    const endpoint = await dashboardCall(user, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: "http://127.0.0.1:9/left-behind" },
      csrfToken,
    });
    expect(endpoint.status).toBe(201);
    // One made long ago is not listed.
    await query("UPDATE api_keys SET created_at = now() - interval '31 days' WHERE name = 'Default live key' AND merchant_id = $1", [
      (await query("SELECT merchant_id FROM memberships WHERE user_id = (SELECT id FROM users WHERE email = $1)", [user.email]))[0]
        .merchant_id,
    ]);
    expect((await accountCall("forgot-password", { email: user.email })).status).toBe(202);
    const [mail] = await query<{ text_body: string }>(
      "SELECT text_body FROM email_outbox WHERE \"to\" = $1 AND kind = 'reset_password' ORDER BY created_at DESC LIMIT 1",
      [user.email],
    );
    const text = mail.text_body;
    const secret: string = key.body.secret;
    expect(text).toContain(`"left by evil.example" ${secret.slice(0, 12)}`);
    expect(text).toContain(`...${secret.slice(-4)} (test mode), created `);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("https://evil.example");
    expect(text).toContain('"Default test key" sk_test_');
    expect(text).not.toContain("Default live key");
    expect(text).toContain("- to 127.0.0.1:9 (test mode), created ");
    expect(text).toContain(`${baseUrl()}/dashboard/api-keys`);
    expect(text).toContain(`${baseUrl()}/dashboard/webhooks`);
  });
});

describe("account endpoints: a per-IP token before any hashing, answers in the error contract", () => {
  it("bad input, a dead link and a form body are 4xx in the contract's shape with RateLimit headers", async () => {
    const short = await accountCall("reset-password", { token: "x".repeat(43), password: "short" });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      error: { code: "VALIDATION_ERROR", message: "Choose a password of at least 10 characters.", details: expect.any(Object) },
    });
    expect(short.headers.get("ratelimit-limit")).toBeTruthy();
    const dead = await accountCall("reset-password", { token: "x".repeat(43), password: "long-enough-password" });
    expect(dead).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR", details: { reason: "link_invalid" } } } });
    expect((await accountCall("forgot-password", { email: "not an email" })).body.error.code).toBe("VALIDATION_ERROR");
    const form = await fetch(`${baseUrl()}/api/account/reset-password`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "token=x&password=y",
    });
    expect(form.status).toBe(415);
    expect(((await form.json()) as any).error.code).toBe("VALIDATION_ERROR");
  });

  describe("a flood of bad resets (a server of its own, default limits)", () => {
    let server: ServerProcess;
    beforeAll(async () => {
      // The documented defaults (tests/helpers/server.ts raises the account endpoints' limit for other files).
      server = await startTestServer({ TRUSTED_PROXY_HOPS: "1", PASSWORD_RESET_IP_RATE_LIMIT_MAX: "10", SIGNUP_RATE_LIMIT_MAX: "1000" });
    });
    afterAll(() => server?.stop());

    it(
      "40 parallel bad resets from one IP get 429s in the error contract, and a sign-in made during them succeeds",
      { timeout: 120_000 },
      async () => {
        const user = await signUpOverHttp({}, server.url);
        const flooder = { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
        const resets = Array.from({ length: 40 }, (_, i) =>
          accountCall(
            "reset-password",
            { token: `made-up-token-${i}-${"x".repeat(30)}`, password: "long-enough-password" },
            server.url,
            flooder,
          ),
        );
        const signIn = authCallback("signin", { email: user.email, password: user.password }, server.url, {
          "X-Forwarded-For": `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
        });
        const [answers, signedIn] = await Promise.all([Promise.all(resets), signIn]);
        expect(signedIn).toMatchObject({ status: 200, error: null });
        expect(signedIn.cookie).toContain("next-auth.session-token=");
        const limited = answers.filter((a) => a.status === 429);
        const refused = answers.filter((a) => a.status === 400);
        console.log(
          `40 parallel bad resets: ${limited.length} x 429, ${refused.length} x 400, ${answers.length - limited.length - refused.length} other`,
        );
        expect(limited.length + refused.length).toBe(40);
        expect(limited.length).toBeGreaterThanOrEqual(29);
        for (const answer of limited) {
          expect(answer.body).toEqual({ error: { code: "RATE_LIMITED", message: expect.any(String), details: expect.any(Object) } });
          expect(answer.headers.get("ratelimit-limit")).toBe("10");
          expect(answer.headers.get("ratelimit-remaining")).toBe("0");
          expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
        }
        for (const answer of refused) expect(answer.body.error.details.reason).toBe("link_invalid");
      },
    );
  });
});
