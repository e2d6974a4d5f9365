// Dashboard sign-in and its guards over real HTTP: session-less access, the Origin and CSRF checks of
// dashboard mutations, sign-in/sign-up limits, the seeded demo login, and a revoked key's 401.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoMerchant } from "../../scripts/lib/seed";
import type { ServerProcess } from "../../scripts/lib/server-process";
import {
  authCallback,
  confirmSignUp,
  dashboardCall,
  dashboardPage,
  enrollTwoFactor,
  signInOverHttp,
  signUpOverHttp,
  uniqueEmail,
  type DashboardSession,
} from "../helpers/dashboard";
import { call } from "../helpers/http";
import { startTestServer } from "../helpers/server";

let session: DashboardSession & { email: string; password: string };
let csrfToken: string;

beforeAll(async () => {
  session = await signUpOverHttp({ name: "Guarded Goods" });
  const page = await dashboardPage(session);
  expect(page.status).toBe(200);
  csrfToken = page.csrfToken!;
  expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

describe("without a session", () => {
  it.each(["/dashboard", "/dashboard/api-keys", "/dashboard/orders", "/dashboard/orders/ord_doesnotexist00000000000000"])(
    "GET %s redirects to /login",
    async (path) => {
      const res = await fetch(`${session.base}${path}`, { redirect: "manual" });
      expect([303, 307, 308]).toContain(res.status);
      expect(new URL(res.headers.get("location")!, session.base).pathname).toBe("/login");
    },
  );

  it("a dashboard mutation is 401 UNAUTHORIZED in the error contract", async () => {
    const res = await dashboardCall(null, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String), details: {} } });
  });

  it("a forged session cookie is no session", async () => {
    const res = await dashboardCall({ base: session.base, cookie: "next-auth.session-token=forged" }, "POST", "/api/dashboard/api-keys", {
      body: {},
      csrfToken,
    });
    expect(res.status).toBe(401);
  });
});

describe("dashboard mutations: Origin and CSRF", () => {
  it("succeed with the session, a same-origin Origin and the page's CSRF token", async () => {
    const res = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: { name: "ok" }, csrfToken });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^sk_test_/);
  });

  it.each([
    ["no Origin header", { origin: null }],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin 'null'", { origin: "null" }],
  ])("403 FORBIDDEN with %s", async (_label, override) => {
    const res = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken, ...override });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("FORBIDDEN");
  });

  it("403 FORBIDDEN without the CSRF token, with a wrong one, or with another session's", async () => {
    const other = await signUpOverHttp({ name: "Other shop" });
    const otherToken = (await dashboardPage(other)).csrfToken!;
    for (const token of [null, "x".repeat(43), otherToken]) {
      const res = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: token });
      expect(res.status, String(token)).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
    }
  });

  it("a new sign-in gets a new CSRF token; the old session's token does not fit it", async () => {
    const again = await signInOverHttp(session.email, session.password);
    const token = (await dashboardPage(again)).csrfToken!;
    expect(token).not.toBe(csrfToken);
    expect((await dashboardCall(again, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken })).status).toBe(403);
    expect((await dashboardCall(again, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: token })).status).toBe(201);
  });

  it("bad input is 400 VALIDATION_ERROR with field errors, never a 500", async () => {
    const unknownField = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: { name: "x", admin: true }, csrfToken });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.code).toBe("VALIDATION_ERROR");
    const longName = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: { name: "x".repeat(101) }, csrfToken });
    expect(longName.body.error.details.fields[0].path).toBe("name");
    const res = await fetch(`${session.base}/api/dashboard/api-keys`, {
      method: "POST",
      headers: { Cookie: session.cookie, Origin: session.base, "X-CSRF-Token": csrfToken, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
  });

  it("the page's mode decides the key's mode; another merchant's key is 404 to revoke", async () => {
    // A live-mode write: the owner enrolls in two-factor sign-in first (tests/http/two-factor.http.test.ts).
    await enrollTwoFactor(session, csrfToken);
    const live = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: { name: "live" }, csrfToken, mode: "live" });
    expect(live.body.secret).toMatch(/^sk_live_/);
    expect(live.body.livemode).toBe(true);
    const other = await signUpOverHttp();
    const otherToken = (await dashboardPage(other)).csrfToken!;
    const otherKey = await dashboardCall(other, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: otherToken });
    const res = await dashboardCall(session, "POST", `/api/dashboard/api-keys/${otherKey.body.id}/revoke`, { body: {}, csrfToken });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    // The test-mode page cannot revoke the live key either (the other mode is not found).
    expect(
      (await dashboardCall(session, "POST", `/api/dashboard/api-keys/${live.body.id}/revoke`, { body: {}, csrfToken, mode: "test" }))
        .status,
    ).toBe(404);
  });

  it("a revoked key is refused by /v1 at once", async () => {
    const created = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken });
    expect((await call("GET", "/v1/orders", { key: created.body.secret })).status).toBe(200);
    const revoked = await dashboardCall(session, "POST", `/api/dashboard/api-keys/${created.body.id}/revoke`, { body: {}, csrfToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    expect((await call("GET", "/v1/orders", { key: created.body.secret })).status).toBe(401);
    // Revoking again answers the same.
    expect(
      (await dashboardCall(session, "POST", `/api/dashboard/api-keys/${created.body.id}/revoke`, { body: {}, csrfToken })).body.status,
    ).toBe("revoked");
  });
});

describe("sign-in and sign-up", () => {
  it("the seeded demo login of npm start works", async () => {
    await seedDemoMerchant(process.env.DATABASE_URL!);
    const demo = await signInOverHttp(DEMO_EMAIL, DEMO_PASSWORD);
    const page = await dashboardPage(demo);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Demo merchant");
  });

  it("a wrong password or an unknown email is CredentialsSignin, with no session", async () => {
    expect(await authCallback("signin", { email: session.email, password: "wrong-password" })).toMatchObject({
      status: 401,
      error: "CredentialsSignin",
      cookie: null,
    });
    expect(await authCallback("signin", { email: uniqueEmail(), password: "whatever-password" })).toMatchObject({
      status: 401,
      error: "CredentialsSignin",
      cookie: null,
    });
  });

  it("sign-up refuses a short password (a taken email is answered like a new one: tests/http/dashboard-email-links.http.test.ts)", async () => {
    expect((await authCallback("signup", { name: "Short", email: uniqueEmail(), password: "short" })).error).toBe("INVALID_SIGNUP");
  });

  it("sign-out revokes the session on the server: a copy of the old cookie no longer opens anything", async () => {
    const user = await signUpOverHttp();
    const token = (await dashboardPage(user)).csrfToken!;
    const { csrfToken: nextAuthCsrf } = await (await fetch(`${user.base}/api/auth/csrf`, { headers: { Cookie: user.cookie } })).json();
    const out = await fetch(`${user.base}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: user.cookie, Origin: user.base },
      body: new URLSearchParams({ csrfToken: nextAuthCsrf, json: "true" }),
    });
    expect(out.status).toBe(200);
    const page = await dashboardPage(user);
    expect(page.status).toBe(307);
    expect(new URL(page.location!, user.base).pathname).toBe("/login");
    expect((await dashboardCall(user, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: token })).status).toBe(401);
    // Signing in again is a new session.
    expect((await dashboardPage(await signInOverHttp(user.email, user.password))).status).toBe(200);
  });

  it("sign-up made the merchant's first test and live keys", async () => {
    const keys = await dashboardPage(session, "/dashboard/api-keys");
    expect(keys.html).toContain("sk_test_");
    const live = await fetch(`${session.base}/dashboard/api-keys`, { headers: { Cookie: `${session.cookie}; aps_dashboard_mode=live` } });
    expect(await live.text()).toContain("sk_live_");
  });
});

describe("sign-in and sign-up limits per IP", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // Behind one trusted proxy, so this test's client IP is its own (the bucket table is shared by every
    // server on the test database; the other files' sign-ups from 127.0.0.1 must not be starved).
    server = await startTestServer({ SIGNUP_RATE_LIMIT_MAX: "2", RATE_LIMIT_WINDOW_MS: "3600000", TRUSTED_PROXY_HOPS: "1" });
  });
  afterAll(() => server?.stop());

  // Here rather than on the shared server: its hour-long window cannot refill while slow hashes run.
  it("sign-in is limited per IP and email: after 5 attempts even the right password waits", { timeout: 240_000 }, async () => {
    // Sign-ups from addresses of their own: this server's sign-up limit is 2 per IP.
    const signUpFrom = async (from: string) => {
      const fields = { email: uniqueEmail(), password: "long-enough-password" };
      expect((await authCallback("signup", { name: "Per IP", ...fields }, server.url, { "X-Forwarded-For": from })).error).toBe(
        "CHECK_EMAIL",
      );
      await confirmSignUp(fields.email, fields.password, server.url);
      return fields;
    };
    const user = await signUpFrom(`192.0.2.${Math.floor(Math.random() * 250) + 1}`);
    const ip = { "X-Forwarded-For": `203.0.113.${Math.floor(Math.random() * 250) + 1}` };
    for (let i = 0; i < 5; i++)
      expect((await authCallback("signin", { email: user.email, password: "wrong-password" }, server.url, ip)).error).toBe(
        "CredentialsSignin",
      );
    const limited = await authCallback("signin", { email: user.email, password: user.password }, server.url, ip);
    expect(limited).toMatchObject({ status: 429, error: "RATE_LIMITED", cookie: null });
    // Another email from the same IP is not affected.
    const other = await signUpFrom(`192.0.2.${Math.floor(Math.random() * 250) + 1}`);
    expect((await authCallback("signin", { email: other.email, password: other.password }, server.url, ip)).cookie).toContain(
      "next-auth.session-token=",
    );
  });

  it("the third sign-up from one IP within the window is RATE_LIMITED; another IP is not affected", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const signUpFrom = async (from: string) =>
      (
        await authCallback("signup", { name: "Many", email: uniqueEmail(), password: "long-enough-password" }, server.url, {
          "X-Forwarded-For": from,
        })
      ).error;
    expect([await signUpFrom(ip), await signUpFrom(ip), await signUpFrom(ip)]).toEqual(["CHECK_EMAIL", "CHECK_EMAIL", "RATE_LIMITED"]);
    expect(await signUpFrom(`203.0.113.${Math.floor(Math.random() * 250) + 1}`)).toBe("CHECK_EMAIL");
  });
});
