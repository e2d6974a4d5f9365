// The emailed links, as received over SMTP (the e2e server sends to the SMTP sink, e2e/support/mail.ts):
// sign-up says "check your email" and the confirmation link, with the sign-up's password, creates the
// account; "Forgot password?" mails a reset link, the new password signs in and the old one no longer
// does. The dev mail viewer (/dev/mail; the e2e server runs with DEV_MAIL_VIEWER=1) lists the same mails
// with their delivery. axe-clean pages.
import { expect, test } from "@playwright/test";
import { openMailedLink, signIn, signUp, uniqueUser } from "./support/dashboard";
import { newestMail } from "./support/mail";
import { expectAccessible } from "./support/pay";

test("sign-up -> check your email -> confirm with the link mailed over SMTP -> sign in -> dashboard; the viewer shows it sent; axe-clean", async ({
  page,
}) => {
  const user = uniqueUser("Confirmed Candles");
  await page.goto("/signup");
  await page.getByLabel("Business name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText(`We sent a message to ${user.email}`);
  await expectAccessible(page);

  // Before confirming there is no account: the right password is refused as any unknown email's.
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText("Incorrect email or password. Just signed up?");

  // The mail arrived over SMTP, in text and HTML with the same link.
  const mail = await newestMail(user.email, { kind: "confirm_email" });
  const link = mail.links.find((l) => l.includes("/confirm-email?token="))!;
  expect(mail.text).toContain(link);
  expect(mail.html).toContain(`href="${link}"`);
  // The dev mail viewer lists it, sent over SMTP.
  await page.goto(`/dev/mail?to=${encodeURIComponent(user.email)}`);
  const listed = page.locator('[data-testid="mail"][data-kind="confirm_email"]');
  await expect(listed.getByRole("heading", { name: mail.subject })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(listed.getByTestId("mail-status")).toHaveText("sent", { timeout: 1_000 });
  }).toPass();
  await expectAccessible(page);
  await openMailedLink(page, user.email, "confirm_email");
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your email" })).toBeVisible();
  // The button is enabled once the page has hydrated, then fades to its colour (transition-colors): axe
  // looks at it once that transition is over, not at a blend halfway.
  await expect(page.getByRole("button", { name: "Confirm my email" })).toBeEnabled();
  await page.waitForFunction(() => document.getAnimations().length === 0);
  await expectAccessible(page);
  // The link creates the account only with the sign-up's own password.
  await page.getByLabel("Password").fill("not-the-sign-up-password");
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText("not the password of the sign-up");
  await expectAccessible(page);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Your email is confirmed");
  await page.getByRole("link", { name: "Sign in" }).first().click();
  await signIn(page, user.email, user.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
});

test("forgot password -> the mailed link -> reset -> sign in with the new password; axe-clean", async ({ page }) => {
  const user = uniqueUser("Forgetful Florist");
  await signUp(page, user);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login**");

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expectAccessible(page);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("If an account uses this email");

  await openMailedLink(page, user.email, "reset_password");
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await expectAccessible(page);
  const newPassword = `${user.password}-new`;
  await page.getByLabel("New password").fill(newPassword);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Your password is changed");

  // The old password no longer works; the new one does.
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText("Incorrect email or password");
  await signIn(page, user.email, newPassword);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  // The link was used once: opening it again says so.
  await openMailedLink(page, user.email, "reset_password");
  await page.getByLabel("New password").fill(`${newPassword}-again`);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText("expired or was already used");
});
