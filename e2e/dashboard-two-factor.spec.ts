// Two-factor sign-in in the browser (issue 28 item 7): live mode tells an owner without it that changes
// need it and links to Security; enrolling there shows the key and the otpauth:// link, takes a first code
// and shows ten recovery codes once; after signing out, sign-in asks for the code after the password (a
// wrong one is refused in words, a recovery code works instead); then live changes work. The Security page
// and the sign-in's code step are axe-clean at 360 and 1280 px.
import { expect, test, type Page } from "@playwright/test";
import { freshTotp } from "../tests/helpers/two-factor";
import { enrollTwoFactor, newSignedInMerchant, signIn } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";

const SIZES = [
  [360, 740],
  [1280, 800],
] as const;

/** axe at both widths, and nothing wider than a 360 px phone. */
async function checkAtBothSizes(page: Page, name: string) {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
    await screenshot(page, `${name}-${width}`);
  }
}

test("an owner enrolls on the Security page, signs out, signs in with password + code, and may then change live mode", async ({ page }) => {
  const user = await newSignedInMerchant(page, "Two Factor Ltd");

  // Live mode without a second factor: the notice, with the way to fix it; a live change is refused.
  await page.goto("/dashboard/api-keys");
  await page.getByRole("switch", { name: "Test mode" }).click();
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "false");
  const banner = page.getByTestId("two-factor-required-banner");
  await expect(banner).toContainText("need two-factor authentication to make changes in live mode");
  await page.getByRole("button", { name: "Create secret key" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Turn on two-factor authentication" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await banner.getByRole("link", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  await checkAtBothSizes(page, "security-off");

  // The setup step: the key as text and the otpauth:// link; a wrong code is refused by its field.
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s+/g, "");
  await expect(page.getByTestId("totp-uri")).toContainText("otpauth://totp/");
  await expect(page.getByRole("link", { name: "open it in the app" })).toHaveAttribute("href", /^otpauth:\/\/totp\/.*secret=/);
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByLabel("Authentication code")).toHaveAttribute("aria-invalid", "true");
  await checkAtBothSizes(page, "security-setup");
  await page.getByLabel("Authentication code").fill(await freshTotp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  await checkAtBothSizes(page, "security-recovery-codes");
  await page.getByRole("button", { name: "I saved my recovery codes" }).click();
  await expect(page.getByTestId("two-factor-on")).toContainText("Recovery codes left: 10 of 10.");
  await checkAtBothSizes(page, "security-on");
  // The session that enrolled has proved the factor: no notice in live mode any more.
  await expect(page.getByTestId("two-factor-required-banner")).toHaveCount(0);

  // Sign out; sign in: the password, then the code step (a wrong code is refused in words, and stays there).
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeFocused();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await checkAtBothSizes(page, "sign-in-code");
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  await page.getByLabel("Authentication code").fill(await freshTotp(secret));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  // Live mode now takes changes: a live key.
  await page.goto("/dashboard/api-keys");
  await expect(page.getByTestId("two-factor-required-banner")).toHaveCount(0);
  await page.getByRole("button", { name: "Create secret key" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-secret")).toContainText("sk_live_");
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();

  // A recovery code instead of the app, once.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recoveryCodes[0]);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard");
  await page.goto("/dashboard/settings/security");
  await expect(page.getByTestId("two-factor-on")).toContainText("Recovery codes left: 9 of 10.");
});

test("turning it off takes the password; sign-in is then the password alone", async ({ page }) => {
  const user = await newSignedInMerchant(page, "Off Again Ltd");
  const { secret } = await enrollTwoFactor(page);
  await page.getByRole("button", { name: "Turn off" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Password").fill("not-the-password");
  await dialog.getByRole("button", { name: "Turn off" }).click();
  await expect(dialog.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
  await dialog.getByLabel("Password").fill(user.password);
  await dialog.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Two-factor authentication is off." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Set up two-factor authentication" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");
  await signIn(page, user.email, user.password);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
});
