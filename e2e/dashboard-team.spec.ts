// Teams in Chromium (docs/dashboard.md, "Team"): an owner invites a developer and a viewer on the Team
// page; each reads the invitation from the SMTP sink (e2e/support/mail.ts), creates an account through its
// link and signs in. The developer sees no refund button and the dashboard API refuses the refund (403
// naming the role), but adds a webhook endpoint; the viewer can do neither. A user in two merchants
// switches between them and sees each one's data only. The Team and invitation pages are axe-clean at
// 360 and 1280 px.
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { createApiKeyInDashboard, newSignedInMerchant, signIn, dashboardPost } from "./support/dashboard";
import { mailedLink } from "./support/mail";
import { expectAccessible } from "./support/pay";
import { addEndpointInDashboard } from "./support/webhooks";

const WIDTHS = [360, 1280];

async function paidOrder(request: APIRequestContext, key: string): Promise<string> {
  const headers = { Authorization: `Bearer ${key}` };
  const checkout = await request.post("/v1/checkouts", { headers, data: { amount: 4200, currency: "usd" } });
  expect(checkout.status()).toBe(201);
  const order = await request.post(`/v1/checkouts/${(await checkout.json()).id}/capture`, {
    headers,
    data: { paymentMethod: "pm_card_visa" },
  });
  expect(order.status()).toBe(200);
  return (await order.json()).id;
}

/** Invites `email` with `role` from the Team page. */
async function invite(page: Page, email: string, role: "admin" | "developer" | "viewer") {
  await page.goto("/dashboard/team");
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a team member" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Role").selectOption(role);
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText(email);
}

/** The invited person opens the mailed link in a browser of their own, creates the account and signs in. */
async function joinAsNewAccount(browser: Browser, email: string, checkAccessibility = false): Promise<Page> {
  const link = await mailedLink(email, { kind: "invitation" });
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await expect(page.getByText("You are invited to join")).toBeVisible();
  if (checkAccessibility)
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page);
    }
  const password = `team-${randomBytes(5).toString("hex")}`;
  await page.getByLabel("Your name").fill("Pat Member");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page.getByRole("status")).toContainText("Your account is ready");
  // The link works once.
  await page.goto(link);
  await expect(page.getByText("This invitation link has expired, was already used or was revoked")).toBeVisible();
  await signIn(page, email, password);
  return page;
}

test("an owner invites a developer and a viewer by mail: the developer adds a webhook endpoint but cannot refund; the viewer can do neither", async ({
  page,
  browser,
  request,
}) => {
  await newSignedInMerchant(page, "Team Roasters");
  const key = await createApiKeyInDashboard(page);
  const orderId = await paidOrder(request, key);
  await page.goto(`/dashboard/orders/${orderId}`);
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toBeVisible();

  const tag = randomBytes(4).toString("hex");
  const developerEmail = `dev-${tag}@example.com`;
  const viewerEmail = `viewer-${tag}@example.com`;
  await invite(page, developerEmail, "developer");
  await invite(page, viewerEmail, "viewer");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
    await expectAccessible(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The developer.
  const developer = await joinAsNewAccount(browser, developerEmail, true);
  await expect(developer.getByTestId("merchant-name")).toHaveText("Team Roasters");
  await developer.goto(`/dashboard/orders/${orderId}`);
  await expect(developer.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(developer.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  const refused = await dashboardPost(developer, "/api/dashboard/refunds", { orderId, amount: 100 });
  expect(refused).toMatchObject({
    status: 403,
    body: { error: { code: "FORBIDDEN", details: { reason: "role_required", role: "admin" } } },
  });
  const endpoint = await addEndpointInDashboard(developer, "http://127.0.0.1:9/team-hooks");
  expect(endpoint.id).toMatch(/^we_/);
  await developer.goto("/dashboard/team");
  await expect(developer.getByRole("button", { name: "Invite member" })).toHaveCount(0);
  await expect(developer.getByRole("navigation", { name: "Dashboard" }).first().getByRole("link", { name: "API keys" })).toHaveCount(1);

  // The viewer.
  const viewer = await joinAsNewAccount(browser, viewerEmail);
  await viewer.goto(`/dashboard/orders/${orderId}`);
  await expect(viewer.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await viewer.goto("/dashboard/webhooks");
  await expect(viewer.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  expect(await dashboardPost(viewer, "/api/dashboard/webhook-endpoints", { url: "http://127.0.0.1:9/viewer" })).toMatchObject({
    status: 403,
    body: { error: { code: "FORBIDDEN", details: { role: "developer" } } },
  });
  expect((await dashboardPost(viewer, "/api/dashboard/refunds", { orderId, amount: 100 })).status).toBe(403);
  // What a viewer may not see at all is neither in the navigation nor reachable.
  await expect(viewer.getByRole("navigation", { name: "Dashboard" }).first().getByRole("link", { name: "API keys" })).toHaveCount(0);
  await viewer.goto("/dashboard/api-keys");
  await expect(viewer.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();

  // The owner sees both members with their roles, and nothing pending.
  await page.goto("/dashboard/team");
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("combobox", { name: `Role of ${developerEmail}` })).toHaveValue("developer");
  await expect(members.getByRole("combobox", { name: `Role of ${viewerEmail}` })).toHaveValue("viewer");
  await expect(page.getByText("No pending invitations")).toBeVisible();
});

test("a user in two merchants switches between them and sees each one's data only", async ({ page, browser }) => {
  await newSignedInMerchant(page, "Alpha Apiary");
  expect((await dashboardPost(page, "/api/dashboard/products", { name: "Alpha honey", unitAmount: 1200, currency: "usd" })).status).toBe(
    201,
  );

  const other = await (await browser.newContext()).newPage();
  const b = await newSignedInMerchant(other, "Beta Bakery");
  expect((await dashboardPost(other, "/api/dashboard/products", { name: "Beta bread", unitAmount: 500, currency: "usd" })).status).toBe(
    201,
  );

  // Alpha's owner invites Beta's owner, who is signed in and joins with one button.
  await invite(page, b.email, "developer");
  await other.goto(await mailedLink(b.email, { kind: "invitation" }));
  await other.getByRole("button", { name: "Join Alpha Apiary" }).click();
  await other.waitForURL("**/dashboard");
  await expect(other.getByTestId("merchant-name")).toHaveText("Alpha Apiary");
  await other.goto("/dashboard/products");
  await expect(other.getByText("Alpha honey")).toBeVisible();
  await expect(other.getByText("Beta bread")).toHaveCount(0);

  const switcher = other.getByRole("combobox", { name: "Merchant" });
  await switcher.selectOption({ label: "Beta Bakery (owner)" });
  await expect(other.getByTestId("merchant-name")).toHaveText("Beta Bakery");
  await other.goto("/dashboard/products");
  await expect(other.getByText("Beta bread")).toBeVisible();
  await expect(other.getByText("Alpha honey")).toHaveCount(0);
  for (const width of WIDTHS) {
    await other.setViewportSize({ width, height: 900 });
    await expectAccessible(other);
  }

  await other.getByRole("combobox", { name: "Merchant" }).selectOption({ label: "Alpha Apiary (developer)" });
  await expect(other.getByTestId("merchant-name")).toHaveText("Alpha Apiary");
  await other.goto("/dashboard/products");
  await expect(other.getByText("Alpha honey")).toBeVisible();
  await expect(other.getByText("Beta bread")).toHaveCount(0);
});
