// Issue 28 item 7: two-factor sign-in with TOTP and recovery codes. Enrolled in the dashboard (the secret
// sealed at rest, the recovery codes hashed), then sign-in asks for a code after the right password only;
// a code works once (a replay within its window is refused), wrong codes are counted per user in Postgres
// and blocked with a growing wait, a recovery code works exactly once, and turning it off takes the
// password or a current code. Codes are computed here from the secret, as an authenticator app does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import {
  authCallback,
  dashboardCall,
  dashboardPage,
  enrollTwoFactor,
  signInOverHttp,
  signUpOverHttp,
  uniqueEmail,
  type DashboardSession,
} from "../helpers/dashboard";
import { codeFor } from "../helpers/oauth";
import { newMember } from "../helpers/team";
import { startTestServer } from "../helpers/server";
import { currentStep, freshTotp, totpAt } from "../helpers/two-factor";

let server: ServerProcess;
let serverLog = "";

beforeAll(async () => {
  // Each second step sends the password again: this file's sign-ins need more than 5 per (IP, email).
  server = await startTestServer({
    RATE_LIMIT_MAX: "100000",
    SIGNUP_RATE_LIMIT_MAX: "1000",
    LOGIN_IP_RATE_LIMIT_MAX: "1000",
    LOGIN_RATE_LIMIT_MAX: "1000",
    LOGIN_ACCOUNT_FAILURES_MAX: "1000",
  });
  server.child.stdout?.on("data", (chunk) => (serverLog += chunk));
  server.child.stderr?.on("data", (chunk) => (serverLog += chunk));
});

afterAll(async () => {
  await server?.stop();
});

interface Account extends DashboardSession {
  email: string;
  password: string;
  csrfToken: string;
}

async function newAccount(name = "Two-factor merchant"): Promise<Account> {
  const session = await signUpOverHttp({ name }, server.url);
  return { ...session, csrfToken: (await dashboardPage(session)).csrfToken! };
}

const signIn = (email: string, password: string, code?: string) =>
  authCallback("signin", code === undefined ? { email, password } : { email, password, code }, server.url);

const userIdOf = async (email: string) => (await getDb().user.findUniqueOrThrow({ where: { email } })).id;

const activity = async (email: string, action: string) =>
  getDb().accountActivity.findMany({ where: { userId: await userIdOf(email), action }, orderBy: { createdAt: "asc" } });

/** Another test-mode or live-mode write: a secret key made on the API keys page. */
const createKey = (account: DashboardSession & { csrfToken: string }, mode: "test" | "live", csrfToken = account.csrfToken) =>
  dashboardCall(account, "POST", "/api/dashboard/api-keys", { body: { name: `${mode} key` }, csrfToken, mode });

describe("enrolling in the dashboard", () => {
  it("setup gives an otpauth:// URI and the key as text, sealed at rest; a wrong first code is refused; the right one turns it on with 10 recovery codes, stored hashed", async () => {
    const account = await newAccount();
    const setup = await dashboardCall(account, "POST", "/api/dashboard/two-factor/setup", { body: {}, csrfToken: account.csrfToken });
    expect(setup.status).toBe(200);
    const { secret, uri } = setup.body as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe("otpauth:");
    expect(parsed.host).toBe("totp");
    expect(decodeURIComponent(parsed.pathname)).toContain(account.email);
    expect(parsed.searchParams.get("secret")).toBe(secret);
    expect(parsed.searchParams.get("issuer")).toBe("Agent Payments Service");
    const userId = await userIdOf(account.email);
    const pending = await getDb().userTwoFactor.findUniqueOrThrow({ where: { userId } });
    expect(pending.enabledAt).toBeNull();
    expect(pending.secretSealed).toMatch(/^v1:/);
    expect(pending.secretSealed).not.toContain(secret);

    // Not on yet: sign-in still takes the password alone.
    expect((await signIn(account.email, account.password)).cookie).not.toBeNull();

    const wrong = await dashboardCall(account, "POST", "/api/dashboard/two-factor/enable", {
      body: { code: totpAt(secret, currentStep() + 5) },
      csrfToken: account.csrfToken,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { fields: [{ path: "code" }] } });
    const junk = await dashboardCall(account, "POST", "/api/dashboard/two-factor/enable", {
      body: { code: 123 },
      csrfToken: account.csrfToken,
    });
    expect(junk.status).toBe(400);

    const enabled = await dashboardCall(account, "POST", "/api/dashboard/two-factor/enable", {
      body: { code: await freshTotp(secret) },
      csrfToken: account.csrfToken,
    });
    expect(enabled.status).toBe(200);
    const codes = enabled.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    const stored = await getDb().recoveryCode.findMany({ where: { userId } });
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.map((code) => code.replaceAll("-", ""))).not.toContain(row.codeHash);
    }
    expect((await getDb().userTwoFactor.findUniqueOrThrow({ where: { userId } })).enabledAt).not.toBeNull();
    expect(await activity(account.email, "two_factor_enabled")).toHaveLength(1);

    // Setting up again while it is on is refused; the security page says it is on, with 10 codes left.
    const again = await dashboardCall(account, "POST", "/api/dashboard/two-factor/setup", { body: {}, csrfToken: account.csrfToken });
    expect(again.status).toBe(409);
    const page = await dashboardPage(account, "/dashboard/settings/security");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Recovery codes left: 10 of 10.");
    // The secret and the codes never reach the server's log.
    expect(serverLog).not.toContain(secret);
    for (const code of codes) expect(serverLog).not.toContain(code);
  });
});

describe("signing in with two-factor authentication", () => {
  let account: Account;
  let secret: string;
  let recoveryCodes: string[];
  beforeAll(async () => {
    account = await newAccount();
    ({ secret, recoveryCodes } = await enrollTwoFactor(account, account.csrfToken));
  });

  it("asks for the code only after the right password; password + code signs in; a replayed code is refused", async () => {
    const noCode = await signIn(account.email, account.password);
    expect(noCode).toMatchObject({ status: 401, error: "TWO_FACTOR_REQUIRED", cookie: null });
    // A wrong password, or an unknown email, with or without a code: the usual answer, nothing about 2FA.
    const code = await freshTotp(secret);
    expect(await signIn(account.email, "not-the-password", code)).toMatchObject({ status: 401, error: "CredentialsSignin", cookie: null });
    expect(await signIn(account.email, "not-the-password")).toMatchObject({ error: "CredentialsSignin" });
    expect(await signIn(uniqueEmail(), "not-the-password", code)).toMatchObject({ error: "CredentialsSignin" });

    const signedIn = await signIn(account.email, account.password, code);
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookie).not.toBeNull();
    expect((await dashboardPage({ cookie: signedIn.cookie!, base: server.url })).status).toBe(200);

    // The same code again, within its window: refused (its step is spent), and logged as a failed sign-in.
    const replay = await signIn(account.email, account.password, code);
    expect(replay).toMatchObject({ status: 401, error: "TWO_FACTOR_INVALID", cookie: null });
    const failed = await activity(account.email, "sign_in_failed");
    expect(failed.at(-1)).toMatchObject({ detail: { reason: "two_factor" }, ip: "127.0.0.1", userAgent: expect.any(String) });
    // An older step than the last one accepted is refused too, even inside the window.
    const older = totpAt(secret, currentStep() - 1);
    if (older !== code) expect((await signIn(account.email, account.password, older)).error).toBe("TWO_FACTOR_INVALID");
    // A fresh code works.
    expect((await signIn(account.email, account.password, await freshTotp(secret))).cookie).not.toBeNull();
  });

  it("a recovery code signs in exactly once (any case, with or without dashes), and the log says so", async () => {
    const [first, second] = recoveryCodes;
    const used = await signIn(account.email, account.password, first);
    expect(used.cookie).not.toBeNull();
    expect(await activity(account.email, "recovery_code_used")).toMatchObject([{ ip: "127.0.0.1", userAgent: expect.any(String) }]);
    expect(await signIn(account.email, account.password, first)).toMatchObject({ error: "TWO_FACTOR_INVALID", cookie: null });
    // Two sign-ins racing with the same unused code: one gets in.
    const raced = await Promise.all([
      signIn(account.email, account.password, second.replaceAll("-", "").toUpperCase()),
      signIn(account.email, account.password, second),
    ]);
    expect(raced.filter((attempt) => attempt.cookie !== null)).toHaveLength(1);
    expect(raced.filter((attempt) => attempt.error === "TWO_FACTOR_INVALID")).toHaveLength(1);
    expect(await activity(account.email, "recovery_code_used")).toHaveLength(2);
    const page = await dashboardPage(account, "/dashboard/settings/security");
    expect(page.html).toContain("Recovery codes left: 8 of 10.");
  });
});

describe("limits on codes", () => {
  it("5 wrong codes, then even the right one is refused (429 with Retry-After) until the block ends; concurrent guesses cannot slip past; each block is longer", async () => {
    const account = await newAccount();
    const { secret } = await enrollTwoFactor(account, account.csrfToken);
    const userId = await userIdOf(account.email);
    const wrong = (offset: number) => totpAt(secret, currentStep() + 10 + offset);
    // 12 wrong codes at once: exactly 5 are checked (TWO_FACTOR_INVALID), the others refused unchecked.
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(account.email, account.password, wrong(i))));
    expect(burst.filter((attempt) => attempt.error === "TWO_FACTOR_INVALID")).toHaveLength(5);
    const limited = burst.filter((attempt) => attempt.error === "RATE_LIMITED");
    expect(limited).toHaveLength(7);
    for (const attempt of limited) expect(attempt.status).toBe(429);
    expect(await activity(account.email, "sign_in_failed")).toHaveLength(5);
    const row = await getDb().userTwoFactor.findUniqueOrThrow({ where: { userId } });
    expect(row.failures).toBe(5);
    const wait = (row.blockedUntil!.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(15);
    expect(wait).toBeLessThanOrEqual(30);

    const blocked = await signIn(account.email, account.password, await freshTotp(secret));
    expect(blocked).toMatchObject({ status: 429, error: "RATE_LIMITED", cookie: null });
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(30);
    // Without a code the answer is still TWO_FACTOR_REQUIRED: the block tells nothing before a code is sent.
    expect((await signIn(account.email, account.password)).error).toBe("TWO_FACTOR_REQUIRED");

    // The block over (moved into the past here), one more wrong code blocks for twice as long.
    await getDb().userTwoFactor.update({ where: { userId }, data: { blockedUntil: new Date(Date.now() - 1000) } });
    expect((await signIn(account.email, account.password, wrong(99))).error).toBe("TWO_FACTOR_INVALID");
    const longer = await getDb().userTwoFactor.findUniqueOrThrow({ where: { userId } });
    expect(longer.failures).toBe(6);
    expect((longer.blockedUntil!.getTime() - Date.now()) / 1000).toBeGreaterThan(50);

    // Once it ends, the right code signs in and clears the count.
    await getDb().userTwoFactor.update({ where: { userId }, data: { blockedUntil: new Date(Date.now() - 1000) } });
    expect((await signIn(account.email, account.password, await freshTotp(secret))).cookie).not.toBeNull();
    const cleared = await getDb().userTwoFactor.findUniqueOrThrow({ where: { userId } });
    expect(cleared).toMatchObject({ failures: 0, blockedUntil: null });
  });
});

describe("the live-mode rule", () => {
  it("an owner without two-factor authentication cannot write in live mode (403 two_factor_required); live reads and test mode work; after enrolling, live writes work", async () => {
    const account = await newAccount("Live owner");
    const refusal = { code: "FORBIDDEN", details: { reason: "two_factor_required" } };
    const liveWrites = [
      createKey(account, "live"),
      dashboardCall(account, "POST", "/api/dashboard/webhook-endpoints", {
        body: { url: "https://93.184.216.34/hooks" },
        csrfToken: account.csrfToken,
        mode: "live",
      }),
      dashboardCall(account, "PATCH", "/api/dashboard/settings", {
        body: { name: "Renamed live" },
        csrfToken: account.csrfToken,
        mode: "live",
      }),
      dashboardCall(account, "POST", "/api/dashboard/refunds", {
        body: { orderId: "ord_000000000000000000000000" },
        csrfToken: account.csrfToken,
        mode: "live",
      }),
    ];
    for (const res of await Promise.all(liveWrites)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject(refusal);
    }
    expect(
      await getDb().apiKey.count({ where: { merchant: { memberships: { some: { user: { email: account.email } } } }, livemode: true } }),
    ).toBe(1);
    // Live reads need no second factor; test mode needs none at all.
    const read = await dashboardCall(account, "GET", "/api/dashboard/payments/export", { mode: "live" });
    expect(read.status).toBe(200);
    expect((await createKey(account, "test")).status).toBe(201);
    // The dashboard says so in live mode, with a link to set it up.
    const livePage = await fetch(`${server.url}/dashboard`, { headers: { Cookie: `${account.cookie}; aps_dashboard_mode=live` } });
    const html = await livePage.text();
    expect(html).toContain('data-testid="two-factor-required-banner"');
    expect(html).toContain('href="/dashboard/settings/security"');

    // Granting an OAuth app live access is a live-mode act too; test access is not.
    await expect(codeFor(account, { choice: { mode: "live" } })).rejects.toThrow(/consent decision: 403/);
    expect((await codeFor(account, { choice: { mode: "test" } })).code).toBeTruthy();

    // Setting it up is allowed in live mode (it is what the rule asks for); the session that did it may act.
    const otherSession = await signInOverHttp(account.email, account.password, server.url);
    const otherToken = (await dashboardPage(otherSession)).csrfToken!;
    const setup = await dashboardCall(account, "POST", "/api/dashboard/two-factor/setup", {
      body: {},
      csrfToken: account.csrfToken,
      mode: "live",
    });
    expect(setup.status).toBe(200);
    const enabled = await dashboardCall(account, "POST", "/api/dashboard/two-factor/enable", {
      body: { code: await freshTotp(setup.body.secret) },
      csrfToken: account.csrfToken,
      mode: "live",
    });
    expect(enabled.status).toBe(200);
    expect((await createKey(account, "live")).status).toBe(201);
    expect((await codeFor(account, { choice: { mode: "live" } })).code).toBeTruthy();
    // A session signed in with the password alone before it was turned on has not proved the factor.
    const stale = await createKey({ ...otherSession, csrfToken: otherToken }, "live");
    expect(stale.status).toBe(403);
    expect(stale.body.error).toMatchObject(refusal);
    expect((await createKey({ ...otherSession, csrfToken: otherToken }, "test")).status).toBe(201);
    // Signing in with a code is such a proof.
    const withCode = await signInOverHttp(account.email, account.password, server.url, setup.body.secret);
    expect((await createKey({ ...withCode, csrfToken: (await dashboardPage(withCode)).csrfToken! }, "live")).status).toBe(201);
  });
});

describe("the live-mode rule by role", () => {
  it("an admin without two-factor authentication is refused a live write, a developer is not; an admin who enrolls may act", async () => {
    const owner = await newAccount("Team with roles");
    await enrollTwoFactor(owner, owner.csrfToken);
    const by = { session: owner, csrfToken: owner.csrfToken, email: owner.email, password: owner.password };
    const [admin, developer] = [await newMember(by, "admin"), await newMember(by, "developer")];
    const liveEndpoint = (member: { session: DashboardSession; csrfToken: string }) =>
      dashboardCall(member.session, "POST", "/api/dashboard/webhook-endpoints", {
        body: { url: "https://93.184.216.34/hooks" },
        csrfToken: member.csrfToken,
        mode: "live",
      });
    const refused = await liveEndpoint(admin);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", details: { reason: "two_factor_required" } });
    expect((await createKey({ ...admin.session, csrfToken: admin.csrfToken }, "test")).status).toBe(201);
    expect((await liveEndpoint(developer)).status).toBe(201);
    await enrollTwoFactor(admin.session, admin.csrfToken);
    expect((await liveEndpoint(admin)).status).toBe(201);
  });
});

describe("turning it off", () => {
  it("takes the password or a current code; a wrong one changes nothing; then sign-in is the password alone and live writes are refused again", async () => {
    const account = await newAccount();
    const { secret } = await enrollTwoFactor(account, account.csrfToken);
    const disable = (body: unknown) =>
      dashboardCall(account, "POST", "/api/dashboard/two-factor/disable", { body, csrfToken: account.csrfToken });
    expect((await disable({})).status).toBe(400);
    const wrongPassword = await disable({ password: "not-the-password" });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error.details.fields[0].path).toBe("password");
    const usedCode = await disable({ code: totpAt(secret, currentStep() + 7) });
    expect(usedCode.status).toBe(400);
    expect(usedCode.body.error.details.fields[0].path).toBe("code");
    expect((await signIn(account.email, account.password)).error).toBe("TWO_FACTOR_REQUIRED");

    // With a current code (in live mode: turning it off is the user's own business, not a live write).
    const off = await dashboardCall(account, "POST", "/api/dashboard/two-factor/disable", {
      body: { code: await freshTotp(secret) },
      csrfToken: account.csrfToken,
      mode: "live",
    });
    expect(off.status).toBe(200);
    expect(await activity(account.email, "two_factor_disabled")).toHaveLength(1);
    const userId = await userIdOf(account.email);
    expect(await getDb().userTwoFactor.count({ where: { userId } })).toBe(0);
    expect(await getDb().recoveryCode.count({ where: { userId } })).toBe(0);
    expect((await signIn(account.email, account.password)).cookie).not.toBeNull();
    expect((await createKey(account, "live")).body.error).toMatchObject({ details: { reason: "two_factor_required" } });
    expect((await disable({ password: account.password })).status).toBe(409);

    // On again, and off with the password.
    await enrollTwoFactor(account, account.csrfToken);
    expect((await disable({ password: account.password })).status).toBe(200);
    expect(await activity(account.email, "two_factor_disabled")).toHaveLength(2);
    expect(await activity(account.email, "two_factor_enabled")).toHaveLength(2);
  });
});
