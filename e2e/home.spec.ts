import { expect, test } from "@playwright/test";

test("the home page introduces the service and links to the probes", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Agent Payments Service" })).toBeVisible();
  await page.getByRole("link", { name: "/ready" }).click();
  await expect(page.locator("body")).toContainText('"status":"ready"');
});
