// Emailed links (docs/dashboard.md, "Email links"), over HTTP against the real server and database:
// sign-up answers the same whether or not the email has an account; an unconfirmed account cannot sign
// in; confirmation and reset links are single-use and expire; a reset revokes every session; "forgot
// password" answers the same for any email and is limited per email and per IP; the dev mail viewer is
// off in production without DEV_MAIL_VIEWER=1. Mails are read from the dev mail viewer (/dev/mail).
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { accountCall, authCallback, dashboardPage, mailedToken, signInOverHttp, signUpOverHttp, uniqueEmail } from "../helpers/dashboard";
import { baseUrl } from "../helpers/http";
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

/** next-auth's sign-up callback, raw: status, body and the cookies' names it set. */
async function rawSignUp(fields: Record<string, string>) {
  const base = baseUrl();
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/signup`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
      Origin: base,
    },
    body: new URLSearchParams({ ...fields, csrfToken, json: "true" }),
  });
  return {
    status: res.status,
    body: await res.text(),
    cookies: res.headers
      .getSetCookie()
      .map((c) => c.split("=")[0])
      .sort(),
  };
}

async function mailKinds(email: string): Promise<string[]> {
  return (await query<{ kind: string }>('SELECT kind FROM email_outbox WHERE "to" = $1 ORDER BY created_at', [email])).map((r) => r.kind);
}

const expireToken = (token: string) =>
  query("UPDATE email_link_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [
    createHash("sha256").update(token).digest("hex"),
  ]);

describe("sign-up does not tell which emails have accounts", () => {
  it("answers a taken email (any case) exactly as a new one: same status, same body, same cookies", async () => {
    const existing = await signUpOverHttp();
    const fresh = uniqueEmail();
    const taken = await rawSignUp({ name: "Dup", email: existing.email.toUpperCase(), password: "long-enough-password" });
    const created = await rawSignUp({ name: "New", email: fresh, password: "long-enough-password" });
    expect(taken.status).toBe(200);
    expect(taken).toEqual(created);
    expect(new URL(JSON.parse(taken.body).url).searchParams.get("error")).toBe("CHECK_EMAIL");
    expect(taken.cookies).not.toContain("next-auth.session-token");
    // Only the mails differ: the owner hears someone tried; the new address gets a confirmation link.
    expect(await mailKinds(existing.email)).toEqual(["confirm_email", "signup_existing_account"]);
    expect(await mailKinds(fresh)).toEqual(["confirm_email"]);
    // The existing account is untouched: its password still signs in.
    expect((await signInOverHttp(existing.email, existing.password)).cookie).toContain("next-auth.session-token=");
  });

  it("an unconfirmed account cannot sign in; it is told so only with the right password; signing up again mails a new link", async () => {
    const email = uniqueEmail();
    const password = "long-enough-password";
    expect((await authCallback("signup", { name: "Unconfirmed", email, password })).error).toBe("CHECK_EMAIL");
    expect(await query("SELECT email_confirmed_at FROM users WHERE email = $1", [email])).toEqual([{ email_confirmed_at: null }]);
    expect(await authCallback("signin", { email, password: "wrong-password" })).toMatchObject({
      status: 401,
      error: "CredentialsSignin",
      cookie: null,
    });
    expect(await authCallback("signin", { email, password })).toMatchObject({ status: 401, error: "EMAIL_UNCONFIRMED", cookie: null });
    const first = await mailedToken(email, "confirm_email");
    expect((await authCallback("signup", { name: "Again", email, password: "another-long-password" })).error).toBe("CHECK_EMAIL");
    expect(await mailKinds(email)).toEqual(["confirm_email", "confirm_email"]);
    const second = await mailedToken(email, "confirm_email");
    expect(second).not.toBe(first);
    // Either link confirms; the password is the first sign-up's.
    expect((await accountCall("confirm-email", { token: second })).status).toBe(200);
    expect(await authCallback("signin", { email, password: "another-long-password" })).toMatchObject({ error: "CredentialsSignin" });
    expect((await signInOverHttp(email, password)).cookie).toContain("next-auth.session-token=");
  });

  it("the confirmation link is single-use, expires, and only its hash is stored", async () => {
    const email = uniqueEmail();
    expect((await authCallback("signup", { name: "Once", email, password: "long-enough-password" })).error).toBe("CHECK_EMAIL");
    const token = (await mailedToken(email, "confirm_email"))!;
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(await query("SELECT 1 FROM email_link_tokens WHERE token_hash = $1", [token])).toEqual([]);
    expect(
      await query("SELECT purpose FROM email_link_tokens WHERE token_hash = $1", [createHash("sha256").update(token).digest("hex")]),
    ).toEqual([{ purpose: "confirm_email" }]);
    // Two uses at once: the database lets exactly one through.
    const both = await Promise.all([accountCall("confirm-email", { token }), accountCall("confirm-email", { token })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await accountCall("confirm-email", { token })).body.error.code).toBe("link_invalid");

    const later = uniqueEmail();
    expect((await authCallback("signup", { name: "Late", email: later, password: "long-enough-password" })).error).toBe("CHECK_EMAIL");
    const stale = (await mailedToken(later, "confirm_email"))!;
    await expireToken(stale);
    expect((await accountCall("confirm-email", { token: stale })).status).toBe(400);
    expect(await authCallback("signin", { email: later, password: "long-enough-password" })).toMatchObject({ error: "EMAIL_UNCONFIRMED" });
    // A reset token is not a confirmation token, nor the reverse; bad input is a 4xx.
    expect((await accountCall("confirm-email", { token: "x".repeat(43) })).status).toBe(400);
    expect((await accountCall("confirm-email", {})).status).toBe(400);
    expect((await accountCall("confirm-email", { token: "a\u0000b" })).status).toBe(400);
    const form = await fetch(`${baseUrl()}/api/account/confirm-email`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "token=x",
    });
    expect(form.status).toBe(415);
  });
});

describe("password reset by emailed link", () => {
  it("answers the same for an unknown email; mails a 1-hour link only to an account", async () => {
    const user = await signUpOverHttp();
    const unknown = uniqueEmail();
    const known = await accountCall("forgot-password", { email: user.email.toUpperCase() });
    const none = await accountCall("forgot-password", { email: unknown });
    expect(known.status).toBe(202);
    expect([none.status, none.body]).toEqual([known.status, known.body]);
    expect(await mailKinds(unknown)).toEqual([]);
    expect(await mailKinds(user.email)).toEqual(["confirm_email", "reset_password"]);
    const [row] = await query<{ seconds: number }>(
      "SELECT EXTRACT(EPOCH FROM expires_at - created_at)::int AS seconds FROM email_link_tokens WHERE purpose = 'reset_password' AND user_id = (SELECT id FROM users WHERE email = $1)",
      [user.email],
    );
    expect(row.seconds).toBe(3600);
    expect((await accountCall("forgot-password", { email: "not an email" })).status).toBe(400);
  });

  it("a reset sets the new password, revokes every session, and its link works once", async () => {
    const user = await signUpOverHttp();
    const other = await signInOverHttp(user.email, user.password);
    expect((await dashboardPage(user)).status).toBe(200);
    await accountCall("forgot-password", { email: user.email });
    const token = (await mailedToken(user.email, "reset_password"))!;
    expect((await accountCall("reset-password", { token, password: "short" })).status).toBe(400);
    const done = await accountCall("reset-password", { token, password: "brand-new-password" });
    expect(done).toMatchObject({ status: 200, body: { status: "reset" } });
    // Both sessions are over: the dashboard sends them to /login.
    for (const session of [user, other]) expect((await dashboardPage(session)).status).toBe(307);
    expect(await authCallback("signin", { email: user.email, password: user.password })).toMatchObject({ error: "CredentialsSignin" });
    expect((await signInOverHttp(user.email, "brand-new-password")).cookie).toContain("next-auth.session-token=");
    // Used once: again is refused, and the password stays.
    expect((await accountCall("reset-password", { token, password: "third-long-password" })).body.error.code).toBe("link_invalid");
    expect((await signInOverHttp(user.email, "brand-new-password")).cookie).toBeTruthy();
  });

  it("an expired reset link is refused; a newer link spends the older ones when used", async () => {
    const user = await signUpOverHttp();
    await accountCall("forgot-password", { email: user.email });
    const stale = (await mailedToken(user.email, "reset_password"))!;
    await expireToken(stale);
    expect((await accountCall("reset-password", { token: stale, password: "brand-new-password" })).status).toBe(400);
    await accountCall("forgot-password", { email: user.email });
    const older = (await mailedToken(user.email, "reset_password"))!;
    expect(older).not.toBe(stale);
    await new Promise((r) => setTimeout(r, 5));
    await accountCall("forgot-password", { email: user.email });
    expect((await accountCall("forgot-password", { email: user.email })).status).toBe(429);
    const newest = (await mailedToken(user.email, "reset_password"))!;
    expect((await accountCall("reset-password", { token: newest, password: "brand-new-password" })).status).toBe(200);
    expect((await accountCall("reset-password", { token: older, password: "other-new-password" })).status).toBe(400);
    expect((await signInOverHttp(user.email, "brand-new-password")).cookie).toBeTruthy();
  });

  it("a reset confirms an unconfirmed address (the link came to it)", async () => {
    const email = uniqueEmail();
    expect((await authCallback("signup", { name: "Reset first", email, password: "long-enough-password" })).error).toBe("CHECK_EMAIL");
    await accountCall("forgot-password", { email });
    const token = (await mailedToken(email, "reset_password"))!;
    expect((await accountCall("reset-password", { token, password: "brand-new-password" })).status).toBe(200);
    expect((await signInOverHttp(email, "brand-new-password")).cookie).toBeTruthy();
  });
});

describe("limits and the viewer switch (a server of its own)", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startTestServer({
      PASSWORD_RESET_IP_RATE_LIMIT_MAX: "2",
      RATE_LIMIT_WINDOW_MS: "3600000",
      TRUSTED_PROXY_HOPS: "1",
      DEV_MAIL_VIEWER: "0",
    });
  });
  afterAll(() => server?.stop());

  it("forgot password is limited per IP whatever the emails (429 with Retry-After); another IP is not affected", async () => {
    const ip = { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await accountCall("forgot-password", { email: uniqueEmail() }, server.url, ip)).status);
    expect(statuses).toEqual([202, 202, 429]);
    const limited = await accountCall("forgot-password", { email: uniqueEmail() }, server.url, ip);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(
      (
        await accountCall("forgot-password", { email: uniqueEmail() }, server.url, {
          "X-Forwarded-For": `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
        })
      ).status,
    ).toBe(202);
  });

  it("the dev mail viewer is the 404 page in production without DEV_MAIL_VIEWER=1", async () => {
    expect((await fetch(`${server.url}/dev/mail`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/dev/mail`)).status).toBe(200);
  });
});
