// Toasts belong to the page that showed them: "Secret key created." (or any success toast) is gone once the
// merchant moves to another dashboard page, and does not come back on returning; a toast about the page an
// action leads to ("Endpoint deleted." -> the webhooks list) shows there.
import { expect, test } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { addEndpointInDashboard } from "./support/webhooks";

test("a success toast does not follow the merchant to another dashboard page", async ({ page }) => {
  await newSignedInMerchant(page, "Toast Bakery");
  await createApiKeyInDashboard(page, "Toast key");
  const created = page.getByTestId("toast").filter({ hasText: "Secret key created." });
  await expect(created).toBeVisible();

  // Client-side navigation through the sidebar (the layout, and so the toast provider, stays mounted).
  // Toasts live 6 s on their own page, so seeing none within 1.5 s is the navigation's doing.
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await nav.getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(page.getByTestId("toast")).toHaveCount(0, { timeout: 1_500 });

  await nav.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByTestId("toast")).toHaveCount(0, { timeout: 1_500 });

  // Same for a toast on a detail page: revoke, then leave.
  await page
    .getByTestId("row")
    .filter({ hasText: "Toast key" })
    .getByRole("button", { name: /^Revoke/ })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Key revoked" })).toBeVisible();
  await nav.getByRole("link", { name: "Home" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await expect(page.getByTestId("toast")).toHaveCount(0, { timeout: 1_500 });
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByTestId("toast")).toHaveCount(0, { timeout: 1_500 });
});

test("a toast about the page an action goes to is shown there", async ({ page }) => {
  await newSignedInMerchant(page, "Toast Hooks");
  await addEndpointInDashboard(page, "https://hooks.example.com/toast");
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
  await page.waitForURL(/\/dashboard\/webhooks$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Endpoint deleted." })).toBeVisible();
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(page.getByTestId("toast")).toHaveCount(0, { timeout: 1_500 });
});
