// Settings: the business name, the pay page brand (colour and logo) and the dashboard's time zone, saved in
// the dashboard and seen by a payer on /pay and by the merchant in every time on the dashboard.
import { expect, test } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, openCheckout, screenshot } from "./support/pay";

test("settings brand the pay page and set the dashboard's time zone", async ({ page, request }) => {
  await newSignedInMerchant(page, "Plain Name Ltd");
  const key = await createApiKeyInDashboard(page);
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expectAccessible(page);

  // A colour that is not one is refused by its field, and nothing is saved.
  await page.getByLabel("Brand colour", { exact: true }).fill("yellow");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("must be a colour such as #4f46e5")).toBeVisible();

  await page.getByLabel("Business name").fill("Sunny Side Bakery");
  await page.getByLabel("Brand colour", { exact: true }).fill("#FDE047");
  await page.getByLabel("Logo URL").fill("https://cdn.example.com/sunny.png");
  await page.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Settings saved." })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Brand colour", { exact: true })).toHaveValue("#fde047");
  await expect(page.getByTestId("merchant-name")).toHaveText("Sunny Side Bakery");

  // The dashboard's times are in Tokyo time now, named as such.
  await page.goto("/dashboard/api-keys");
  await expect(page.getByTestId("row").first()).toContainText("GMT+9");

  // The payer sees the brand: name, logo, and a Pay button in the brand colour with readable (black) text.
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await expect(page.getByRole("heading", { name: "Pay Sunny Side Bakery" })).toBeVisible();
  await expect(page.getByTestId("merchant-logo")).toHaveAttribute("src", "https://cdn.example.com/sunny.png");
  const pay = page.getByRole("button", { name: "Pay $54.00" });
  await expect(pay).toHaveCSS("background-color", "rgb(253, 224, 71)");
  await expect(pay).toHaveCSS("color", "rgb(0, 0, 0)");
  await screenshot(page, "pay-page-branded");
});
