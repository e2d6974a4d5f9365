// Emailed links (docs/dashboard.md, "Sign-up" and "Email links"), over HTTP against the real server and
// database: sign-up answers the same whether or not the email has an account; a sign-up creates no account
// until its own link is used with its own password (no pre-hijacking); confirmation and reset links are
// single-use and expire; a reset revokes every session; "forgot
// password" answers the same for any email and is limited per email and per IP; the dev mail viewer is
// off in production without DEV_MAIL_VIEWER=1. Mails are read from the dev mail viewer (/dev/mail).
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import {
  accountCall,
  authCallback,
  dashboardPage,
  mailedToken,
  mailedTokens,
  signInOverHttp,
  signUpOverHttp,
  uniqueEmail,
} from "../helpers/dashboard";
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

const expireResetToken = (token: string) =>
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

  it("a sign-up is no account until its link is used with its password: sign-in, reset and a wrong password get nothing", async () => {
    const email = uniqueEmail();
    const password = "long-enough-password";
    expect((await authCallback("signup", { name: "Pending", email, password })).error).toBe("CHECK_EMAIL");
    expect(await query("SELECT 1 FROM users WHERE email = $1", [email])).toEqual([]);
    expect(await query("SELECT name FROM pending_sign_ups WHERE email = $1", [email])).toEqual([{ name: "Pending" }]);
    // Its right password is refused exactly as an unknown email's is: nothing tells that a sign-up waits.
    const unknown = await authCallback("signin", { email: uniqueEmail(), password });
    expect(unknown).toMatchObject({ status: 401, error: "CredentialsSignin", cookie: null });
    expect(await authCallback("signin", { email, password })).toEqual(unknown);
    // No account, so "forgot password" mails nothing.
    expect((await accountCall("forgot-password", { email })).status).toBe(202);
    expect(await mailKinds(email)).toEqual(["confirm_email"]);
    // The link with another password: refused, and the link still works with the right one.
    const token = (await mailedToken(email, "confirm_email"))!;
    const wrong = await accountCall("confirm-email", { token, password: "not-the-password" });
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR", details: { reason: "wrong_password" } } } });
    expect(await query("SELECT 1 FROM users WHERE email = $1", [email])).toEqual([]);
    expect((await accountCall("confirm-email", { token, password })).status).toBe(200);
    expect((await signInOverHttp(email, password)).cookie).toContain("next-auth.session-token=");
    expect(
      await query("SELECT action FROM account_activity WHERE user_id = (SELECT id FROM users WHERE email = $1)", [email]),
    ).toContainEqual({
      action: "email_confirmed",
    });
  });

  it("the confirmation link is single-use, expires, and only its hash is stored", async () => {
    const email = uniqueEmail();
    const password = "long-enough-password";
    expect((await authCallback("signup", { name: "Once", email, password })).error).toBe("CHECK_EMAIL");
    const token = (await mailedToken(email, "confirm_email"))!;
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(await query("SELECT 1 FROM pending_sign_ups WHERE token_hash = $1", [token])).toEqual([]);
    expect(
      await query("SELECT email FROM pending_sign_ups WHERE token_hash = $1", [createHash("sha256").update(token).digest("hex")]),
    ).toEqual([{ email }]);
    // Two uses at once: the database lets exactly one through.
    const both = await Promise.all([accountCall("confirm-email", { token, password }), accountCall("confirm-email", { token, password })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await accountCall("confirm-email", { token, password })).body.error.details.reason).toBe("link_invalid");
    expect(await query("SELECT count(*)::int AS n FROM users WHERE email = $1", [email])).toEqual([{ n: 1 }]);

    const later = uniqueEmail();
    expect((await authCallback("signup", { name: "Late", email: later, password })).error).toBe("CHECK_EMAIL");
    const stale = (await mailedToken(later, "confirm_email"))!;
    await query("UPDATE pending_sign_ups SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [
      createHash("sha256").update(stale).digest("hex"),
    ]);
    expect((await accountCall("confirm-email", { token: stale, password })).body.error.details.reason).toBe("link_invalid");
    expect(await authCallback("signin", { email: later, password })).toMatchObject({ error: "CredentialsSignin" });
    // Bad input is a 4xx.
    expect((await accountCall("confirm-email", { token: "x".repeat(43), password })).status).toBe(400);
    expect((await accountCall("confirm-email", { token: stale })).status).toBe(400);
    expect((await accountCall("confirm-email", {})).status).toBe(400);
    expect((await accountCall("confirm-email", { token: "a\u0000b", password })).status).toBe(400);
    const form = await fetch(`${baseUrl()}/api/account/confirm-email`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "token=x",
    });
    expect(form.status).toBe(415);
  });
});

describe("no account pre-hijacking", () => {
  it("A signs up with B's email, B signs up and confirms the newest mail: A's password never opens the account, B's does", async () => {
    const email = uniqueEmail();
    const intruder = "intruders-own-password";
    const owner = "the-owners-real-password";
    expect((await authCallback("signup", { name: "Intruder Ltd", email, password: intruder })).error).toBe("CHECK_EMAIL");
    expect((await authCallback("signup", { name: "Owner Inc", email, password: owner })).error).toBe("CHECK_EMAIL");
    // Both mails went to B's inbox, newest first: B's own, then the intruder's.
    const [newest, older] = await mailedTokens(email, "confirm_email");
    expect(newest && older && newest !== older).toBe(true);
    // B opening the intruder's mail by mistake cannot confirm it: it wants the intruder's password.
    expect((await accountCall("confirm-email", { token: older, password: owner })).body.error.details.reason).toBe("wrong_password");
    expect((await accountCall("confirm-email", { token: newest, password: owner })).status).toBe(200);
    expect(
      await query(
        "SELECT m.name FROM users u JOIN memberships ms ON ms.user_id = u.id JOIN merchants m ON m.id = ms.merchant_id WHERE u.email = $1",
        [email],
      ),
    ).toEqual([{ name: "Owner Inc" }]);
    expect(await authCallback("signin", { email, password: intruder })).toMatchObject({
      status: 401,
      error: "CredentialsSignin",
      cookie: null,
    });
    expect((await signInOverHttp(email, owner)).cookie).toContain("next-auth.session-token=");
    // The intruder's link, even with the intruder's password, now changes nothing: the email has an account.
    const late = await accountCall("confirm-email", { token: older, password: intruder });
    expect(late).toMatchObject({ status: 409, body: { error: { code: "CONFLICT", details: { reason: "email_taken" } } } });
    expect(await authCallback("signin", { email, password: intruder })).toMatchObject({ error: "CredentialsSignin", cookie: null });
    expect(await query("SELECT count(*)::int AS n FROM users WHERE email = $1", [email])).toEqual([{ n: 1 }]);
    // A later sign-up with the confirmed email only tells the owner; the account stays as it is.
    expect((await authCallback("signup", { name: "Intruder again", email, password: intruder })).error).toBe("CHECK_EMAIL");
    expect(await mailKinds(email)).toEqual(["confirm_email", "confirm_email", "signup_existing_account"]);
    expect(await authCallback("signin", { email, password: intruder })).toMatchObject({ error: "CredentialsSignin", cookie: null });
  });

  it("two sign-ups' links of one email used at once: one account, the other link answers that the email is taken", async () => {
    const email = uniqueEmail();
    for (const password of ["first-long-password", "second-long-password"])
      expect((await authCallback("signup", { name: "Race", email, password })).error).toBe("CHECK_EMAIL");
    const [second, first] = await mailedTokens(email, "confirm_email");
    const both = await Promise.all([
      accountCall("confirm-email", { token: first, password: "first-long-password" }),
      accountCall("confirm-email", { token: second, password: "second-long-password" }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await query("SELECT count(*)::int AS n FROM users WHERE email = $1", [email])).toEqual([{ n: 1 }]);
    const winner = both[0].status === 200 ? "first-long-password" : "second-long-password";
    const loser = winner === "first-long-password" ? "second-long-password" : "first-long-password";
    expect((await signInOverHttp(email, winner)).cookie).toBeTruthy();
    expect(await authCallback("signin", { email, password: loser })).toMatchObject({ error: "CredentialsSignin" });
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
    expect((await accountCall("reset-password", { token, password: "third-long-password" })).body.error.details.reason).toBe(
      "link_invalid",
    );
    expect((await signInOverHttp(user.email, "brand-new-password")).cookie).toBeTruthy();
  });

  it("an expired reset link is refused; a newer link spends the older ones when used", async () => {
    const user = await signUpOverHttp();
    await accountCall("forgot-password", { email: user.email });
    const stale = (await mailedToken(user.email, "reset_password"))!;
    await expireResetToken(stale);
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
