// Helpers for the dashboard specs: sign up and sign in through the real forms, a fresh signed-in merchant
// per test (through the forms' endpoints, from the browser's context), API keys created in the dashboard.
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { freshTotp } from "../../tests/helpers/two-factor";
import { mailedLink } from "./mail";

export interface DashboardUser {
  name: string;
  email: string;
  password: string;
}

export function uniqueUser(name = "Acme Coffee Roasters"): DashboardUser {
  const tag = randomBytes(5).toString("hex");
  return { name, email: `owner-${tag}@example.com`, password: `correct-horse-${tag}` };
}

/**
 * Follows the link of the newest mail of a kind to the address, as received over SMTP (e2e/support/mail.ts).
 * `since` (Date.now() before the action that mails): wait for that action's mail rather than an earlier one.
 */
export async function openMailedLink(page: Page, email: string, kind: string, since?: number): Promise<void> {
  await page.goto(await mailedLink(email, { kind, since }));
}

/** Opens the newest confirmation mail's link and confirms it with the sign-up's password. */
export async function confirmMailedSignUp(page: Page, email: string, password: string): Promise<void> {
  await openMailedLink(page, email, "confirm_email");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await expect(page.getByRole("status")).toContainText("Your email is confirmed");
}

/** Signs up through /signup ("check your email"), confirms with the link mailed over SMTP, signs in. */
export async function signUp(page: Page, user: DashboardUser): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Business name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText("Check your email");
  await confirmMailedSignUp(page, user.email, user.password);
  await signIn(page, user.email, user.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
}

/** Signs in on /login; with `twoFactorSecret`, answers the second step with a fresh code from it. */
export async function signIn(page: Page, email: string, password: string, twoFactorSecret?: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (twoFactorSecret) {
    await page.getByLabel("Authentication code").fill(await freshTotp(twoFactorSecret));
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await page.waitForURL("**/dashboard");
}

/**
 * Turns on two-factor sign-in through the Security page (the key shown as text, a code computed from it,
 * the recovery codes saved), as an owner must before acting in live mode. Leaves the page on Security;
 * returns the secret (for later sign-ins) and the recovery codes.
 */
export async function enrollTwoFactor(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto("/dashboard/settings/security");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel("Authentication code").fill(await freshTotp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  await page.getByRole("button", { name: "I saved my recovery codes" }).click();
  await expect(page.getByTestId("two-factor-on")).toBeVisible();
  return { secret, recoveryCodes };
}

/**
 * Signs a brand-new merchant up and leaves the page on the dashboard home, signed in. It posts what the forms post
 * (the sign-up, the confirmation with the link mailed over SMTP and the password, the sign-in) from the page's own
 * browser context, so the session cookie lands in the browser; it skips rendering the three forms, which
 * dashboard-email-links.spec.ts and dashboard-first-run.spec.ts walk through click by click (signUp).
 */
export async function newSignedInMerchant(page: Page, name?: string): Promise<DashboardUser> {
  const user = uniqueUser(name);
  const signedUp = await authForm(page, "signup", { name: user.name, email: user.email, password: user.password });
  expect(signedUp.error, "sign-up").toBe("CHECK_EMAIL");
  const token = new URL(await mailedLink(user.email, { kind: "confirm_email" })).searchParams.get("token");
  const confirmed = await page.request.post("/api/account/confirm-email", { data: { token, password: user.password } });
  expect(confirmed.status(), "confirmation").toBe(200);
  const signedIn = await authForm(page, "signin", { email: user.email, password: user.password });
  expect(signedIn.error, "sign-in").toBeNull();
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  return user;
}

/** next-auth's form post for a provider, as the sign-up and sign-in pages send it (its CSRF cookie and token). */
async function authForm(page: Page, provider: "signup" | "signin", fields: Record<string, string>) {
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const res = await page.request.post(`/api/auth/callback/${provider}`, {
    headers: { Origin: origin },
    form: { ...fields, csrfToken, json: "true" },
    maxRedirects: 0,
  });
  const url = ((await res.json().catch(() => ({}))) as { url?: string }).url;
  return { error: url ? new URL(url, origin).searchParams.get("error") : null };
}

/** Creates a secret key of the current mode on the API keys page and returns the secret (shown once). */
export async function createApiKeyInDashboard(page: Page, name = "Server key"): Promise<string> {
  await page.goto("/dashboard/api-keys");
  await page.getByRole("button", { name: "Create secret key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name (optional)").fill(name);
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = (await dialog.getByTestId("new-secret").textContent())!.trim();
  expect(secret).toMatch(/^sk_(test|live)_[0-9A-Za-z]{32}$/);
  await dialog.getByRole("button", { name: "Done" }).click();
  return secret;
}

/** A dashboard API call from the page, as dashboardFetch makes it (its CSRF token, its merchant). */
export async function dashboardPost(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? "";
      const res = await fetch(path, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-CSRF-Token": meta("aps-csrf-token"),
          "X-Dashboard-Merchant": meta("aps-dashboard-merchant"),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { path, body },
  );
}
