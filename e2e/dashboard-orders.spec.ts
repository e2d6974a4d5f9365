// Orders in the dashboard, in Chromium: a payer pays a checkout opened via the API and the dashboard
// shows the order paid; partial then full refunds from the order page update its status and the balance
// (and a refusal is shown); checkouts made in the dashboard open their pay page; merchant B never sees
// merchant A's order; axe and screenshots.
import { expect, test, type Page } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, fillCard, openCheckout, screenshot } from "./support/pay";

async function payWith4242(page: Page, url: string, label: string) {
  await page.goto(url);
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: `Pay ${label}` }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
}

async function refund(page: Page, options: { partial?: string }) {
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund payment" });
  if (options.partial) {
    await dialog.getByLabel("Partial refund").check();
    await dialog.getByLabel(/Refund amount/).fill(options.partial);
    await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  } else {
    await dialog.getByRole("button", { name: /^Refund \$/ }).click();
  }
  return dialog;
}

test("payer pays a checkout opened via the API; the order shows paid; partial then full refund update status and balance", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await newSignedInMerchant(page, "Acme Coffee Roasters");
  const key = await createApiKeyInDashboard(page);
  const checkout = await openCheckout(request, key);

  await payWith4242(page, checkout.url, "$54.00");
  await page.goto(checkout.url);
  await expect(page.getByRole("heading", { name: "This checkout is already paid" })).toBeVisible();

  await page.goto("/dashboard/orders");
  const row = page.getByTestId("row").filter({ hasText: checkout.orderId });
  await expect(row.getByTestId("status")).toHaveText("Paid");
  await page.goto("/dashboard/orders?status=pending");
  await expect(page.getByTestId("row").filter({ hasText: checkout.orderId })).toHaveCount(0);
  await page.goto("/dashboard/orders?status=paid");
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${checkout.orderId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("$54.00");
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status")).toHaveText("Paid");
  const timeline = page.getByTestId("timeline");
  await expect(timeline.getByText("Order paid")).toBeVisible();
  await expect(timeline.getByText("Payment captured")).toBeVisible();
  // The payment method in words, and who paid as the pay page collected it.
  await expect(page.getByTestId("payment-method")).toHaveText("Visa •••• 4242");
  await expect(page.getByTestId("payment-method")).toHaveAttribute("title", "pm_card_visa");
  await expect(timeline.getByText("$54.00 with Visa •••• 4242")).toBeVisible();
  await expect(page.getByTestId("billing-details")).toHaveText("Jane Payer · US");
  // What was sold: the checkout's description on the order list and page, and the checkout's own page.
  await expect(page.getByTestId("order-description")).toHaveText("Order #1042");
  await page.getByRole("link", { name: checkout.id }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/checkouts/${checkout.id}$`));
  await expect(page.getByTestId("checkout-description")).toHaveText("Order #1042");
  await expect(page.getByRole("table", { name: "Items" })).toContainText("Single-origin espresso beans, 1 kg");
  await expect(page.getByRole("link", { name: checkout.orderId })).toBeVisible();
  await page.goto("/dashboard/orders");
  await expect(page.getByTestId("row").filter({ hasText: checkout.orderId }).getByTestId("sold")).toHaveText("Order #1042");
  await page.goto(`/dashboard/orders/${checkout.orderId}`);

  await page.goto("/dashboard");
  await expect(page.getByTestId("balance-pending-USD")).toHaveText("$54.00");
  await expect(page.getByTestId("revenue-chart")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Net volume" }).locator("..")).toContainText("$54.00");
  await page.goto(`/dashboard/orders/${checkout.orderId}`);

  // More than what is left: the server refuses and the dialog says why.
  let dialog = await refund(page, { partial: "60.00" });
  // In money a person reads, not minor units; and gone once the amount changes.
  await expect(dialog.getByRole("alert")).toContainText("The refund amount $60.00 exceeds the unrefunded remainder $54.00.");
  await expect(dialog.getByText("at most $54.00")).toBeVisible();
  await dialog.getByLabel("Refund amount (USD)").fill("50.00");
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  dialog = await refund(page, { partial: "10.00" });
  await expect(page.getByTestId("toast").filter({ hasText: "Refunded $10.00." })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status")).toHaveText("Partially refunded");
  await expect(page.getByTestId("amount-refunded")).toHaveText("$10.00");
  await expect(page.getByTestId("timeline").getByText("Order partially refunded")).toBeVisible();
  await screenshot(page, "dashboard-order-detail");
  await expectAccessible(page);

  await page.goto("/dashboard");
  await expect(page.getByTestId("balance-pending-USD")).toHaveText("$44.00");

  await page.goto(`/dashboard/orders/${checkout.orderId}`);
  await refund(page, {});
  await expect(page.getByTestId("toast").filter({ hasText: "Refunded $44.00." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status")).toHaveText("Refunded");
  await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await expect(page.getByTestId("timeline").getByText("Order fully refunded")).toBeVisible();

  const order = await (await request.get(`/v1/orders/${checkout.orderId}`, { headers: { Authorization: `Bearer ${key}` } })).json();
  expect(order).toMatchObject({ status: "refunded", amountRefunded: 5400 });
  await page.goto("/dashboard");
  await expect(page.getByTestId("balance-pending-USD")).toHaveText("$0.00");
});

test("a checkout created in the dashboard opens its pay page, and paying it shows in the lists", async ({ page, context }) => {
  await newSignedInMerchant(page, "Dashboard Checkout Shop");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Checkouts" }).click();
  await page.getByRole("button", { name: "Create checkout" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Create checkout" }).click();
  await expect(dialog.getByText("Enter an amount such as 10.00.")).toBeVisible();
  await dialog.getByLabel("Amount").fill("12.50");
  await dialog.getByLabel("Description (optional)").fill("Consulting hour");
  await dialog.getByRole("button", { name: "Create checkout" }).click();
  const link = (await dialog.getByTestId("pay-link").textContent())!;
  expect(link).toMatch(/\/pay\/cs_[0-9A-Za-z]{24}$/);

  const popupPromise = context.waitForEvent("page");
  await dialog.getByRole("link", { name: "Open pay page" }).click();
  const payPage = await popupPromise;
  await expect(payPage.getByRole("heading", { name: "Pay Dashboard Checkout Shop" })).toBeVisible();
  await payWith4242(payPage, link, "$12.50");
  await payPage.close();

  await dialog.getByRole("button", { name: "Done" }).click();
  await page.reload();
  await expect(page.getByTestId("row").first().getByTestId("status")).toHaveText("Complete");
  await page.goto("/dashboard/payments?status=captured");
  await expect(page.getByTestId("row")).toHaveCount(1);
  await page.getByTestId("row").getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("$12.50");
  await expect(page.getByTestId("timeline").getByText("Payment captured")).toBeVisible();
});

test("merchant B never sees merchant A's order: not in lists, and the direct URL is the 404 page", async ({ page, browser, request }) => {
  await newSignedInMerchant(page, "Merchant A");
  const keyA = await createApiKeyInDashboard(page);
  const checkout = await openCheckout(request, keyA);
  await page.goto(`/dashboard/orders/${checkout.orderId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("$54.00");

  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await newSignedInMerchant(pageB, "Merchant B");
  for (const path of [`/dashboard/orders/${checkout.orderId}`, `/dashboard/payments/${checkout.paymentIntentId}`]) {
    const response = await pageB.goto(path);
    expect(response?.status()).toBe(404);
    await expect(pageB.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(pageB.getByText("$54.00")).toHaveCount(0);
  }
  await pageB.goto("/dashboard/orders");
  await expect(pageB.getByText("No orders yet")).toBeVisible();
  // A's own live mode does not show its test order either.
  await page.getByRole("switch", { name: "Test mode" }).click();
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await contextB.close();
});

test("screenshot and axe of the dashboard home with data", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await newSignedInMerchant(page, "Acme Coffee Roasters");
  const key = await createApiKeyInDashboard(page);
  for (const amount of [5400, 1250]) {
    const checkout = await openCheckout(request, key, { items: undefined, amount, description: "Beans" });
    const paid = await request.post(`/v1/checkouts/${checkout.id}/capture`, {
      headers: { Authorization: `Bearer ${key}` },
      data: { paymentMethod: "pm_card_visa" },
    });
    expect(paid.status()).toBe(200);
  }
  await openCheckout(request, key); // one still pending
  await page.goto("/dashboard");
  await expect(page.getByTestId("balance-pending-USD")).toHaveText("$66.50");
  await expect(page.getByRole("region", { name: "Recent orders" }).getByTestId("row")).toHaveCount(3);
  await screenshot(page, "dashboard-home");
  await expectAccessible(page);
});
