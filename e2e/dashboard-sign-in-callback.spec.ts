// After sign-in the merchant lands on the page that was asked for: a signed-out visit to
// /dashboard/orders?status=paid goes to /login with a callback and, once signed in, to that page. A crafted
// callback (absolute URL, "//host", "/\host", a page outside /dashboard) lands on /dashboard instead.
import { expect, test, type Page } from "@playwright/test";
import { confirmMailedSignUp, newSignedInMerchant, type DashboardUser } from "./support/dashboard";

async function submitSignIn(page: Page, user: DashboardUser) {
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");
}

test("a signed-out visit to /dashboard/orders?status=paid comes back there after signing in", async ({ page }) => {
  const user = await newSignedInMerchant(page, "Callback Coffee");
  await signOut(page);

  await page.goto("/dashboard/orders?status=paid");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Forders%3Fstatus%3Dpaid$/);
  await submitSignIn(page, user);
  await page.waitForURL((url) => url.pathname === "/dashboard/orders");
  expect(new URL(page.url()).search).toBe("?status=paid");
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Filter by status" }).getByRole("link", { name: "Paid" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // Already signed in: /login with a callback goes straight there.
  await page.goto(`/login?callbackUrl=${encodeURIComponent("/dashboard/api-keys")}`);
  await expect(page).toHaveURL(/\/dashboard\/api-keys$/);

  // Via "Create an account" the callback is kept too: a new merchant lands on the page asked for.
  await signOut(page);
  await page.goto("/dashboard/checkouts");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(/\/signup\?callbackUrl=%2Fdashboard%2Fcheckouts$/);
  const second = { name: "Second Shop", email: `second-${Date.now()}@example.com`, password: "correct-horse-battery" };
  await page.getByLabel("Business name").fill(second.name);
  await page.getByLabel("Email").fill(second.email);
  await page.getByLabel("Password").fill(second.password);
  await page.getByRole("button", { name: "Create account" }).click();
  // Sign-up ends in "check your email"; once confirmed (dev mail viewer), signing in keeps the callback.
  await expect(page.getByRole("status")).toContainText("Check your email");
  await confirmMailedSignUp(page, second.email, second.password);
  await page.goto("/dashboard/checkouts");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Fcheckouts$/);
  await submitSignIn(page, second);
  await page.waitForURL("**/dashboard/checkouts");
  await expect(page.getByRole("heading", { level: 1, name: "Checkouts" })).toBeVisible();
});

test("open redirects: an absolute URL, //host, /\\host or a path outside /dashboard lands on /dashboard", async ({ page }) => {
  const user = await newSignedInMerchant(page, "Redirect Guard");
  await signOut(page);
  const origin = new URL(page.url()).origin;
  // Four sign-ins: under the login limit per (IP, email). tests/http/dashboard-callback.http.test.ts and
  // tests/unit/callback-path.test.ts cover more shapes.
  for (const callback of ["https://evil.example/dashboard", "//evil.example", "/\\evil.example", "/v1/events"]) {
    await page.context().clearCookies();
    await page.goto(`/login?callbackUrl=${encodeURIComponent(callback)}`);
    await submitSignIn(page, user);
    await page.waitForURL((url) => url.pathname === "/dashboard", { timeout: 10_000 });
    expect(new URL(page.url()).origin, callback).toBe(origin);
    expect(new URL(page.url()).search, callback).toBe("");
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  }
});
