// A new merchant's first minutes: the home page links to sign up and sign in, the dashboard home shows a
// getting-started checklist that ticks itself, a home without endpoints says so, unknown dashboard
// addresses get the dashboard's own 404, and every page has a favicon.
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/pay";
import { createApiKeyInDashboard, signUp, uniqueUser } from "./support/dashboard";

test("from / to a checklist that ticks itself", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/signup$/);

  const favicon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(favicon).toBeTruthy();
  const icon = await request.get(favicon!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");

  await signUp(page, uniqueUser("First Run Books"));
  const checklist = page.getByTestId("getting-started");
  await expect(checklist).toBeVisible();
  await expect(page.getByRole("region", { name: "Get started" })).toContainText("0 of 4 done");
  for (const step of ["api_key", "checkout", "webhook_endpoint", "paywall"]) {
    await expect(checklist.getByTestId(`step-${step}`)).toHaveAttribute("data-done", "false");
  }
  // No endpoints yet: the home says so instead of "every delivery succeeded".
  await expect(page.getByText("No webhook endpoints")).toBeVisible();
  await expect(page.getByText("Every webhook delivery attempt succeeded.")).toHaveCount(0);
  await expectAccessible(page);

  await createApiKeyInDashboard(page);
  await page.goto("/dashboard");
  await expect(checklist.getByTestId("step-api_key")).toHaveAttribute("data-done", "true");
  await expect(page.getByRole("region", { name: "Get started" })).toContainText("1 of 4 done");
  await checklist.getByRole("link", { name: "Go to checkouts" }).click();
  await expect(page).toHaveURL(/\/dashboard\/checkouts$/);
});

test("an unknown dashboard address shows the dashboard's 404 inside its navigation", async ({ page }) => {
  await signUp(page, uniqueUser("Lost Merchant"));
  const response = await page.goto("/dashboard/no-such-page/at-all");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation").first()).toBeVisible();
  await page.getByRole("link", { name: "Back to the dashboard home" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  const outside = await page.goto("/no-such-page");
  expect(outside?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expectAccessible(page);
});
