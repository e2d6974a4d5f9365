// Issue 28, item 3 (docs/dashboard.md, "Activity"): the account activity log's rows for sign-in, failed
// sign-in (an existing user's only), OAuth consent and revoke (dashboard and /oauth/revoke), with IP and
// user agent; and the Activity page: the merchant's rows and its users' own rows, newest first, a page at a
// time, nobody else's.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authCallback, dashboardCall, dashboardPage, signUpOverHttp, uniqueEmail } from "../helpers/dashboard";
import { codeFor, tokenRequest } from "../helpers/oauth";

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
});
afterAll(() => db?.end());

const rowsOf = async (email: string) =>
  (
    await db.query(
      `SELECT action, merchant_id, ip, user_agent, detail FROM account_activity
        WHERE user_id = (SELECT id FROM users WHERE email = $1) ORDER BY created_at, id`,
      [email],
    )
  ).rows;

const AGENT = { "User-Agent": "ActivityTest/1.0 (a test)" };

describe("activity rows", () => {
  it("sign-in and failed sign-in of an existing user, with IP and user agent; an unknown email writes nothing", async () => {
    const user = await signUpOverHttp();
    expect((await authCallback("signin", { email: user.email, password: "wrong-password" }, user.base, AGENT)).error).toBe(
      "CredentialsSignin",
    );
    expect((await authCallback("signin", { email: user.email, password: user.password }, user.base, AGENT)).cookie).toBeTruthy();
    const rows = await rowsOf(user.email);
    expect(rows.map((r) => r.action)).toEqual(["email_confirmed", "sign_in", "sign_in_failed", "sign_in"]);
    for (const row of rows.slice(2)) {
      expect(row).toMatchObject({ merchant_id: null, user_agent: AGENT["User-Agent"] });
      expect(row.ip).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
    const unknown = uniqueEmail();
    expect((await authCallback("signin", { email: unknown, password: "wrong-password" }, user.base)).error).toBe("CredentialsSignin");
    expect(
      (await db.query("SELECT count(*)::int AS n FROM account_activity WHERE user_id IS NULL AND action LIKE 'sign_in%'")).rows,
    ).toEqual([{ n: 0 }]);
  });

  it("OAuth consent, and revocation from the dashboard and by the client at /oauth/revoke", async () => {
    const user = await signUpOverHttp();
    const csrfToken = (await dashboardPage(user)).csrfToken!;
    const exchange = async () => {
      const c = await codeFor(user);
      const res = await tokenRequest(user.base, {
        grant_type: "authorization_code",
        code: c.code!,
        code_verifier: c.verifier,
        redirect_uri: c.redirectUri,
        client_id: c.client.client_id,
        resource: `${user.base}/mcp`,
      });
      expect(res.status).toBe(200);
      return { clientId: c.client.client_id as string, ...res.body };
    };
    const viaDashboard = await exchange();
    const viaRefresh = await exchange();
    const viaAccess = await exchange();
    const [grant] = (await db.query("SELECT id FROM oauth_grants WHERE client_id = $1", [viaDashboard.clientId])).rows;
    expect((await dashboardCall(user, "POST", `/api/dashboard/connected-apps/${grant.id}/revoke`, { body: {}, csrfToken })).status).toBe(
      200,
    );
    const revoke = (token: string, clientId: string) =>
      fetch(`${user.base}/oauth/revoke`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...AGENT },
        body: new URLSearchParams({ token, client_id: clientId }),
      });
    expect((await revoke(viaRefresh.refresh_token, viaRefresh.clientId)).status).toBe(200);
    expect((await revoke(viaAccess.access_token, viaAccess.clientId)).status).toBe(200);
    // Again: nothing more to revoke, nothing more logged.
    expect((await revoke(viaRefresh.refresh_token, viaRefresh.clientId)).status).toBe(200);

    const rows = (await rowsOf(user.email)).filter((r) => r.action.startsWith("oauth_"));
    expect(rows.map((r) => [r.action, r.detail.via ?? null, r.detail.token ?? null])).toEqual([
      ["oauth_consent", null, null],
      ["oauth_consent", null, null],
      ["oauth_consent", null, null],
      ["oauth_revoked", "dashboard", null],
      ["oauth_revoked", "client", "refresh_token"],
      ["oauth_revoked", "client", "access_token"],
    ]);
    for (const row of rows) expect(row.merchant_id).toMatch(/^mer_/);
    expect(rows[0].detail).toMatchObject({ clientName: "raw client", livemode: false, scopes: "read write" });
    expect(rows.at(-1).user_agent).toBe(AGENT["User-Agent"]);
  });
});

describe("the Activity page", () => {
  it("shows the merchant's rows and its users' own rows, newest first, 20 a page with a cursor; nobody else's", async () => {
    const user = await signUpOverHttp();
    const other = await signUpOverHttp();
    const [{ id: userId, merchant_id: merchantId }] = (
      await db.query("SELECT u.id, ms.merchant_id FROM users u JOIN memberships ms ON ms.user_id = u.id WHERE u.email = $1", [user.email])
    ).rows;
    const [{ id: otherId, merchant_id: otherMerchant }] = (
      await db.query("SELECT u.id, ms.merchant_id FROM users u JOIN memberships ms ON ms.user_id = u.id WHERE u.email = $1", [other.email])
    ).rows;
    // 45 rows: the user's own (no merchant) and the merchant's, interleaved, an hour from now so they come first.
    const insert = (action: string, user: string | null, merchant: string | null, secondsAhead: number) =>
      db.query(
        `INSERT INTO account_activity (id, action, user_id, merchant_id, created_at)
         VALUES ($1, $2, $3, $4, now() + interval '1 hour' + make_interval(secs => $5))`,
        [`act_${randomBytes(12).toString("hex")}`, action, user, merchant, secondsAhead],
      );
    for (let i = 1; i <= 45; i++) await insert(`seq_${String(i).padStart(2, "0")}`, i % 2 ? userId : null, i % 2 ? null : merchantId, i);
    // Someone else's rows, and the user's rows of another merchant, are not shown.
    await insert("seq_other_user", otherId, null, 100);
    await insert("seq_other_merchant", userId, otherMerchant, 101);

    const actionsOn = async (path: string) => {
      const page = await dashboardPage(user, path);
      expect(page.status).toBe(200);
      const actions = [...page.html.matchAll(/data-action="([^"]+)"/g)].map((m) => m[1]);
      const next = /href="(\/dashboard\/settings\/activity\?startingAfter=[^"]+)"/.exec(page.html)?.[1]?.replace(/&amp;/g, "&") ?? null;
      return { actions, next };
    };
    const first = await actionsOn("/dashboard/settings/activity");
    const expected = Array.from({ length: 45 }, (_, i) => `seq_${String(45 - i).padStart(2, "0")}`);
    expect(first.actions).toEqual(expected.slice(0, 20));
    const second = await actionsOn(first.next!);
    expect(second.actions).toEqual(expected.slice(20, 40));
    const third = await actionsOn(second.next!);
    expect(third.actions.slice(0, 5)).toEqual(expected.slice(40, 45));
    // Then the user's real rows (sign-in, confirmation), older.
    expect(third.actions.slice(5)).toEqual(expect.arrayContaining(["sign_in", "email_confirmed"]));
    expect([...first.actions, ...second.actions, ...third.actions]).not.toContain("seq_other_user");
    expect([...first.actions, ...second.actions, ...third.actions]).not.toContain("seq_other_merchant");
    // A cursor from someone else's log is refused (404 page), never a peek.
    const [{ id: foreign }] = (
      await db.query("SELECT id FROM account_activity WHERE action = 'seq_other_user' AND user_id = $1", [otherId])
    ).rows;
    expect((await dashboardPage(user, `/dashboard/settings/activity?startingAfter=${foreign}`)).status).toBe(404);
  });
});
