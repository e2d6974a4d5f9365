// Restricted keys in the dashboard (docs/restricted-keys.md): "Create restricted key" with the permission matrix
// (radios named by resource and level), the secret shown once, the list masked with the key's permissions; the key
// creates a checkout and is refused a refund (403 permission_denied); rolling with a grace period; axe-clean with
// the matrix open at 1280 and 360 px, and nothing overflows at 360 px.
import { expect, test, type Page } from "@playwright/test";
import { newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";

async function openMatrix(page: Page) {
  await page.goto("/dashboard/api-keys");
  await page.getByRole("button", { name: "Create restricted key" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("table", { name: /Permissions/ })).toBeVisible();
  return dialog;
}

test("create a restricted key with the matrix: shown once, listed masked with its permissions, enforced by the API; roll it", async ({
  page,
  request,
}) => {
  await newSignedInMerchant(page, "Restricted Keys Ltd");
  const dialog = await openMatrix(page);
  await expect(dialog.getByRole("radio", { name: "refunds: None" })).toBeChecked();
  await dialog.getByLabel("Name (optional)").fill("Shopping agent");
  await dialog.getByRole("radio", { name: "checkouts: Write" }).check();
  await dialog.getByRole("radio", { name: "orders: Read" }).check();
  await expectAccessible(page);
  await screenshot(page, "dashboard-restricted-key-matrix");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = (await dialog.getByTestId("new-secret").textContent())!.trim();
  expect(secret).toMatch(/^rk_test_[0-9A-Za-z]{32}$/);
  await dialog.getByRole("button", { name: "Done" }).click();

  const row = page.getByTestId("row").filter({ hasText: `${secret.slice(0, 12)}…${secret.slice(-4)}` });
  await expect(row).toContainText("Shopping agent");
  await expect(row.getByTestId("key-prefix")).toHaveText(`${secret.slice(0, 12)}…${secret.slice(-4)}`);
  await expect(row.getByTestId("key-permissions")).toHaveText("checkouts: write, orders: read");
  await expect(page.getByText(secret)).toHaveCount(0);

  const auth = { Authorization: `Bearer ${secret}` };
  const checkout = await request.post("/v1/checkouts", { headers: auth, data: { amount: 1500, currency: "usd" } });
  expect(checkout.status()).toBe(201);
  const refund = await request.post("/v1/refunds", { headers: auth, data: { orderId: (await checkout.json()).orderId } });
  expect(refund.status()).toBe(403);
  expect((await refund.json()).error.details).toEqual({ reason: "permission_denied", resource: "refunds", required: "write" });

  // Roll with a grace period: a new secret for the same settings; the old one keeps working until then.
  await row.getByRole("button", { name: /^Roll/ }).click();
  const roll = page.getByRole("dialog");
  await roll.getByLabel("The old key stops").selectOption({ label: "In 1 hour" });
  await roll.getByRole("button", { name: "Roll key" }).click();
  const rolled = (await roll.getByTestId("new-secret").textContent())!.trim();
  expect(rolled).toMatch(/^rk_test_/);
  await roll.getByRole("button", { name: "Done" }).click();
  await expect(row.getByTestId("status")).toHaveText("Expiring");
  const rolledRow = page.getByTestId("row").filter({ hasText: `${rolled.slice(0, 12)}…${rolled.slice(-4)}` });
  await expect(rolledRow).toContainText("Shopping agent"); // the same name and permissions
  await expect(rolledRow.getByTestId("key-permissions")).toHaveText("checkouts: write, orders: read");
  expect((await request.get("/v1/checkouts", { headers: auth })).status()).toBe(200);
  expect((await request.get("/v1/checkouts", { headers: { Authorization: `Bearer ${rolled}` } })).status()).toBe(200);
  expect((await request.get("/v1/refunds", { headers: { Authorization: `Bearer ${rolled}` } })).status()).toBe(403);
});

test("a key that grants nothing is refused in the dialog, in words", async ({ page }) => {
  await newSignedInMerchant(page);
  const dialog = await openMatrix(page);
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByRole("alert")).toContainText("at least one");
});

test("360 px: the matrix fits the dialog, the page does not overflow, and axe finds nothing serious", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await newSignedInMerchant(page, "Small Screen Keys");
  const dialog = await openMatrix(page);
  const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await dialog.getByRole("radio", { name: "mcp: Read" }).check();
  await expect(dialog.getByRole("radio", { name: "mcp: Read" })).toBeChecked();
  await expectAccessible(page);
  await screenshot(page, "dashboard-restricted-key-matrix-360");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const pageOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(pageOverflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
