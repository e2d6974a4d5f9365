// Sign-up, the dashboard frame, and API keys in Chromium: a key created in the dashboard is shown once,
// works against /v1, and gets 401 the moment it is revoked.
import { expect, test } from "@playwright/test";
import { createApiKeyInDashboard, enrollTwoFactor, newSignedInMerchant, signIn, uniqueUser } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";

test("sign up -> dashboard -> create API key (shown once) -> it works against /v1 -> revoke -> 401", async ({ page, request }) => {
  const user = await newSignedInMerchant(page, "Keys & Co");
  await expect(page.getByTestId("merchant-name")).toHaveText("Keys & Co");
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "true");

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByTestId("row")).toHaveCount(1); // the default test key from sign-up
  const secret = await createApiKeyInDashboard(page, "Checkout server");
  expect(secret.startsWith("sk_test_")).toBe(true);

  // Shown once: the list shows only the prefix and last four characters, never the secret.
  await expect(page.getByTestId("row")).toHaveCount(2);
  const row = page.getByTestId("row").filter({ hasText: "Checkout server" });
  await expect(row.getByTestId("key-prefix")).toHaveText(`${secret.slice(0, 12)}…${secret.slice(-4)}`);
  await expect(page.getByText(secret)).toHaveCount(0);

  const works = await request.get("/v1/orders", { headers: { Authorization: `Bearer ${secret}` } });
  expect(works.status()).toBe(200);

  await row.getByRole("button", { name: /^Revoke/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Key revoked" })).toBeVisible();
  await expect(row.getByTestId("status")).toHaveText("Revoked");

  const refused = await request.get("/v1/orders", { headers: { Authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("UNAUTHORIZED");

  // Sign out, and the dashboard is closed again; sign back in with the same password.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");
  await page.goto("/dashboard/api-keys");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Fapi-keys$/);
  await signIn(page, user.email, user.password);
  await expect(page.getByTestId("user-email")).toHaveText(user.email);
});

test("live mode: the switch shows live data and makes live keys", async ({ page, request }) => {
  await newSignedInMerchant(page, "Live Switch Ltd");
  // Owners act in live mode only with two-factor sign-in on (e2e/dashboard-two-factor.spec.ts).
  await enrollTwoFactor(page);
  await page.goto("/dashboard/api-keys");
  await page.getByRole("switch", { name: "Test mode" }).click();
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "false");
  await expect(page.getByTestId("test-mode-banner")).toHaveCount(0);
  // No live rail on this server: the dashboard says what live mode needs instead of a dead end.
  await expect(page.getByTestId("live-unavailable-banner")).toContainText("Live payments are not set up");
  await expect(page.getByRole("heading", { name: "Live keys" })).toBeVisible();
  const secret = await createApiKeyInDashboard(page, "Live server");
  expect(secret.startsWith("sk_live_")).toBe(true);
  const balance = await request.get("/v1/balance", { headers: { Authorization: `Bearer ${secret}` } });
  expect((await balance.json()).livemode).toBe(true);
  // A live checkout is made (201, as the API promises), marked on the dashboard and explained on /pay.
  const opened = await request.post("/v1/checkouts", {
    headers: { Authorization: `Bearer ${secret}` },
    data: { amount: 1200, currency: "usd" },
  });
  expect(opened.status()).toBe(201);
  const checkout = await opened.json();
  await page.goto("/dashboard/checkouts");
  await expect(page.getByTestId("row").filter({ hasText: checkout.id }).getByTestId("not-payable")).toHaveText("Cannot be paid yet");
  await page.goto(checkout.url);
  await expect(page.getByTestId("outcome-unavailable")).toContainText("has not finished setting up live payments");
});

test("signed out: dashboard pages redirect to /login; a wrong password is refused in words", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  const user = uniqueUser();
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect" })).toHaveText(
    "Incorrect email or password. Just signed up? Open the link we emailed you first.",
  );
  await expect(page).toHaveURL(/\/login$/);
});

test("axe-core: no serious or critical violations on /login, /signup and the dashboard home", async ({ page }) => {
  await page.goto("/login");
  await expectAccessible(page);
  await page.goto("/signup");
  await expectAccessible(page);
  await newSignedInMerchant(page);
  await expectAccessible(page);
});

test("360 px wide: the dashboard does not overflow; the nav, the mode switch and sign-out stay reachable", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await newSignedInMerchant(page, "A Very Long Merchant Name For Small Screens Ltd");
  for (const path of ["/dashboard", "/dashboard/orders", "/dashboard/api-keys"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await expect(page.getByRole("switch", { name: "Test mode" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await page.getByTestId("mobile-nav").getByText("Menu").click(); // a phone's navigation is one disclosure
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Checkouts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkouts" })).toBeVisible();
  await screenshot(page, "dashboard-checkouts-mobile-360");
});
