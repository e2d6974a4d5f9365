// Customers (with their test wallets), search by id / email / description, and the payments CSV export,
// in Chromium as a merchant uses them.
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";

async function post(request: APIRequestContext, key: string, path: string, data: Record<string, unknown>) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${key}` }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

test("customers with wallets, search, and the CSV export", async ({ page, request, browser }) => {
  await newSignedInMerchant(page, "Search Party Supplies");
  const key = await createApiKeyInDashboard(page);
  const customer = await post(request, key, "/v1/customers", { name: "Ada Agent", email: "ada.agent@example.com" });
  await post(request, key, `/v1/customers/${customer.id}/fund`, { amount: 5000, currency: "usd" });
  const checkout = await post(request, key, "/v1/checkouts", {
    amount: 1800,
    currency: "usd",
    description: "Espresso subscription, March",
  });
  await post(request, key, `/v1/checkouts/${checkout.id}/capture`, { paymentMethod: customer.id });

  // Customers list and page: the wallet after paying $18.00 from $50.00, and the payment.
  await page.goto("/dashboard/customers");
  const row = page.getByTestId("row").filter({ hasText: "Ada Agent" });
  await expect(row.getByTestId("wallet")).toHaveText("$32.00");
  await row.getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Ada Agent" })).toBeVisible();
  await expect(page.getByTestId("wallet")).toHaveText("$32.00");
  const payment = page.getByRole("table", { name: "Payments of this customer" }).getByTestId("row");
  await expect(payment).toHaveCount(1);
  await expect(payment.getByTestId("payment-method")).toHaveText(`Customer wallet · ${customer.id}`);
  await expectAccessible(page);
  await screenshot(page, "dashboard-customer");

  // Search: an email fragment finds the customer; an id opens its page; a description finds the order.
  const search = page.getByRole("searchbox", { name: "Search by id, email or description" });
  await search.fill("ada.agent@");
  await search.press("Enter");
  await expect(page.getByTestId("search-results")).toContainText("Ada Agent");
  await page.getByTestId("search-results").getByRole("link", { name: "Ada Agent" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/customers/${customer.id}$`));
  await search.fill(checkout.orderId);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${checkout.orderId}$`));
  await search.fill("espresso SUBSCRIPTION");
  await search.press("Enter");
  await expect(page.getByTestId("search-results").getByRole("link", { name: "Espresso subscription, March" })).toHaveAttribute(
    "href",
    `/dashboard/orders/${checkout.orderId}`,
  );
  await expectAccessible(page);

  // Another merchant cannot find this merchant's objects by id.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await newSignedInMerchant(other, "Nosy Neighbour");
  await other.goto(`/dashboard/search?q=${checkout.orderId}`);
  await expect(other.getByText("Nothing found")).toBeVisible();
  await otherContext.close();

  // Export CSV: the payments as a file.
  await page.goto("/dashboard/payments");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^payments-test-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!, "utf8")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "id,created_utc,amount,amount_refunded,currency,status,source,payment_method,billing_name,billing_country,order_id,customer_id",
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,18.00,0.00,USD,captured,api,Customer wallet · ${customer.id},`);
});
