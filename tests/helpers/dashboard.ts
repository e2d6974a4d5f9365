// Dashboard sessions over plain HTTP, the way a browser gets one: next-auth's CSRF cookie and token, then
// the Credentials callback; the session cookie comes back in Set-Cookie. A fresh sign-up confirms its
// email through the link the dev mail viewer shows (/dev/mail; test servers run with DEV_MAIL_VIEWER=1).
import { randomBytes } from "node:crypto";
import { baseUrl } from "./http";
import { freshTotp } from "./two-factor";

export interface DashboardSession {
  cookie: string;
  base: string;
}

function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((line) => line.split(";")[0]);
}

export function uniqueEmail(): string {
  return `user-${randomBytes(6).toString("hex")}@example.com`;
}

/** POSTs next-auth's callback for a provider; returns the response and the cookies it set. */
export async function authCallback(
  provider: "signin" | "signup",
  fields: Record<string, string>,
  base = baseUrl(),
  extraHeaders: Record<string, string> = {},
) {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = cookiesOf(csrf);
  const res = await fetch(`${base}/api/auth/callback/${provider}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: csrfCookies.join("; "), Origin: base, ...extraHeaders },
    body: new URLSearchParams({ ...fields, csrfToken, json: "true" }),
  });
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const error = body.url ? new URL(body.url, base).searchParams.get("error") : null;
  const session = cookiesOf(res).find((cookie) => cookie.startsWith("next-auth.session-token="));
  return {
    status: res.status,
    error,
    cookie: session ? [...csrfCookies, session].join("; ") : null,
    retryAfter: res.headers.get("retry-after"),
  };
}

/**
 * The links (their tokens) of every mail of a kind to an address, newest first, read from the dev mail
 * viewer (/dev/mail?to=, served by test servers with DEV_MAIL_VIEWER=1).
 */
export async function mailedTokens(
  email: string,
  kind: "confirm_email" | "reset_password" | "signup_existing_account" | "invitation",
  base = baseUrl(),
): Promise<string[]> {
  const res = await fetch(`${base}/dev/mail?to=${encodeURIComponent(email)}`);
  if (res.status !== 200) throw new Error(`dev mail viewer: ${res.status}`);
  const html = await res.text();
  return html
    .split('data-testid="mail"')
    .slice(1)
    .filter((part) => part.includes(`data-kind="${kind}"`))
    .map((mail) => {
      const token = /href="[^"]*\?token=([^"&]+)"/.exec(mail)?.[1];
      return token ? decodeURIComponent(token) : "";
    });
}

/** The link (its token) in the newest mail of a kind to an address, or null. */
export async function mailedToken(
  email: string,
  kind: "confirm_email" | "reset_password" | "signup_existing_account" | "invitation",
  base = baseUrl(),
): Promise<string | null> {
  return (await mailedTokens(email, kind, base))[0] ?? null;
}

/** POSTs one of the account endpoints (/api/account/*) as the pages do. */
export async function accountCall(
  path: "confirm-email" | "forgot-password" | "reset-password",
  body: unknown,
  base = baseUrl(),
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}/api/account/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any, headers: res.headers };
}

/**
 * Confirms a sign-up with the link of the newest confirmation mail to the address and the sign-up's
 * password (a link creates the account only with the password of its own sign-up).
 */
export async function confirmSignUp(email: string, password: string, base = baseUrl()): Promise<void> {
  const token = await mailedToken(email, "confirm_email", base);
  if (!token) throw new Error(`sign-up: no confirmation mail to ${email}`);
  const confirmed = await accountCall("confirm-email", { token, password }, base);
  if (confirmed.status !== 200) throw new Error(`confirmation failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
}

/** Signs up over HTTP ("check your email"), confirms with the mailed link, then signs in. */
export async function signUpOverHttp(
  fields: { name?: string; email?: string; password?: string } = {},
  base = baseUrl(),
): Promise<DashboardSession & { email: string; password: string }> {
  const email = fields.email ?? uniqueEmail();
  const password = fields.password ?? `pw-${randomBytes(8).toString("hex")}`;
  const result = await authCallback("signup", { name: fields.name ?? "HTTP test merchant", email, password }, base);
  if (result.error !== "CHECK_EMAIL") throw new Error(`sign-up failed: ${result.status} ${result.error}`);
  await confirmSignUp(email, password, base);
  const session = await signInOverHttp(email, password, base);
  return { ...session, email, password };
}

/** Signs in; with `twoFactorSecret`, the second step too (a fresh code computed from the secret). */
export async function signInOverHttp(
  email: string,
  password: string,
  base = baseUrl(),
  twoFactorSecret?: string,
): Promise<DashboardSession> {
  const fields: Record<string, string> = { email, password };
  if (twoFactorSecret) fields.code = await freshTotp(twoFactorSecret);
  const result = await authCallback("signin", fields, base);
  if (!result.cookie) throw new Error(`sign-in failed: ${result.status} ${result.error}`);
  return { cookie: result.cookie, base };
}

/** The dashboard page's HTML and the CSRF token in its <meta> tag. */
export async function dashboardPage(session: DashboardSession, path = "/dashboard") {
  const res = await fetch(`${session.base}${path}`, { headers: { Cookie: session.cookie }, redirect: "manual" });
  const html = await res.text();
  const csrfToken = /<meta name="aps-csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? null;
  return { status: res.status, html, csrfToken, location: res.headers.get("location") };
}

/** A dashboard API call as dashboardFetch makes it (same Origin, CSRF token, mode), each part overridable. */
export async function dashboardCall(
  session: DashboardSession | null,
  method: string,
  path: string,
  options: {
    body?: unknown;
    csrfToken?: string | null;
    origin?: string | null;
    mode?: "test" | "live";
    base?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const base = session?.base ?? options.base ?? baseUrl();
  const headers: Record<string, string> = { "Content-Type": "application/json", ...options.headers };
  if (session) headers.Cookie = session.cookie;
  const origin = options.origin === undefined ? base : options.origin;
  if (origin) headers.Origin = origin;
  if (options.csrfToken) headers["X-CSRF-Token"] = options.csrfToken;
  if (options.mode) headers["X-Dashboard-Mode"] = options.mode;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: "manual",
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

/**
 * Turns on two-factor sign-in through the dashboard's routes, as the Security page does; the session that
 * did it may then act in live mode (an owner may not before). Returns the secret and the recovery codes.
 */
export async function enrollTwoFactor(session: DashboardSession, csrfToken: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await dashboardCall(session, "POST", "/api/dashboard/two-factor/setup", { body: {}, csrfToken });
  if (setup.status !== 200) throw new Error(`two-factor setup: ${setup.status} ${JSON.stringify(setup.body)}`);
  const secret: string = setup.body.secret;
  const enabled = await dashboardCall(session, "POST", "/api/dashboard/two-factor/enable", {
    body: { code: await freshTotp(secret) },
    csrfToken,
  });
  if (enabled.status !== 200) throw new Error(`two-factor enable: ${enabled.status} ${JSON.stringify(enabled.body)}`);
  return { secret, recoveryCodes: enabled.body.recoveryCodes };
}

/** A merchant signed up over HTTP: its dashboard session, the page's CSRF token and an API key made there. */
export interface DashboardMerchant {
  session: DashboardSession;
  csrfToken: string;
  key: string;
}

/** `twoFactor`: the owner enrolls in two-factor sign-in first, so that this session may act in live mode. */
export async function dashboardMerchant(name: string, options: { twoFactor?: boolean; base?: string } = {}): Promise<DashboardMerchant> {
  const session = await signUpOverHttp({ name }, options.base);
  const csrfToken = (await dashboardPage(session)).csrfToken!;
  if (options.twoFactor) await enrollTwoFactor(session, csrfToken);
  const key = await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: { name: "tests" }, csrfToken });
  if (key.status !== 201) throw new Error(`API key: ${key.status} ${JSON.stringify(key.body)}`);
  return { session, csrfToken, key: key.body.secret };
}
