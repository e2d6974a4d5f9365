// Settings -> Activity: a failed and a successful sign-in and a reset appear in the account activity log
// with where they came from; reached from Settings and from the navigation; readable and axe-clean at 360
// and 1280 px (no sideways overflow of the page).
import { expect, test } from "@playwright/test";
import { newSignedInMerchant, signIn } from "./support/dashboard";
import { expectAccessible } from "./support/pay";

test("the Activity page lists sign-ins, a failed sign-in and the account's changes; axe-clean at 360 and 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const user = await newSignedInMerchant(page, "Watchful Widgets");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login**");
  // A wrong password, then the right one.
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText("Incorrect email or password");
  await signIn(page, user.email, user.password);

  await page.goto("/dashboard/settings");
  await page.getByRole("link", { name: "Account activity" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/activity$/);
  await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Activity" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const actions = page.getByTestId("activity-action");
  await expect(actions).toHaveText(["Signed in", "Failed sign-in (wrong password)", "Signed in", "Email confirmed, account created"]);
  await expect(page.getByRole("group", { name: "Account activity, newest first" })).toContainText(user.email);
  await expectAccessible(page);

  await page.setViewportSize({ width: 360, height: 780 });
  await page.reload();
  await expect(actions.first()).toBeVisible();
  await expect(page.getByTestId("activity-action").first()).toHaveText("Signed in");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
