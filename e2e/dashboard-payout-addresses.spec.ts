// Live x402 payout addresses in Settings (docs/x402.md, "Going live"): an owner with two-factor sign-in, in
// live mode, sets where live payments on the deployment's network go; the page lists it, a wrong address is
// refused by its field, every owner is mailed; in test mode the section says to switch. axe-clean.
import { expect, test } from "@playwright/test";
import { enrollTwoFactor, newSignedInMerchant } from "./support/dashboard";
import { newestMail } from "./support/mail";
import { expectAccessible } from "./support/pay";

const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";

test("an owner sets a live payout address in Settings; a bad one is refused by its field; owners are mailed", async ({ page }) => {
  const owner = await newSignedInMerchant(page, "Payout Owner Ltd");
  await page.goto("/dashboard/settings");
  const section = page.getByRole("region", { name: "Live x402 payout addresses" });
  await expect(section).toContainText("switch to live mode");
  await enrollTwoFactor(page);

  await page.goto("/dashboard/settings");
  await page.getByRole("switch", { name: "Test mode" }).click();
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "false");
  await expect(section).toContainText("Not set");
  await expectAccessible(page);

  await section.getByLabel("Payout address").fill("0x1234");
  await section.getByRole("button", { name: "Save payout address" }).click();
  await expect(section.getByText("a 0x address of 40 hex digits")).toBeVisible();

  await section.getByLabel("Payout address").fill(ADDRESS.toLowerCase());
  await section.getByRole("button", { name: "Save payout address" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Payout address saved." })).toBeVisible();
  await expect(section).toContainText(ADDRESS);
  const mail = await newestMail(owner.email, { kind: "x402_payout_address_changed" });
  expect(mail.text).toContain(`New address: ${ADDRESS}`);
  await expectAccessible(page);
});
