// Meters in the dashboard, in Chromium: meters opened and used through the API show the right amounts
// (accrued fractions of a cent, billed; funded budget / reserved / available), their payments and recent
// usage; another merchant's meter is the 404 page; axe finds nothing serious.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";
import { tick } from "./support/webhooks";

async function post(request: APIRequestContext, key: string, path: string, data: Record<string, unknown>) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${key}` }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

async function fundedCustomer(request: APIRequestContext, key: string) {
  const customer = await post(request, key, "/v1/customers", { name: "Agent payer" });
  await post(request, key, `/v1/customers/${customer.id}/fund`, { amount: 10_000, currency: "usd" });
  return customer.id as string;
}

test("a post-paid meter used through the API: accrued fraction, billed, its settlement and usage in the dashboard", async ({
  page,
  request,
}) => {
  await newSignedInMerchant(page, "Metered Models");
  const key = await createApiKeyInDashboard(page);
  const customerId = await fundedCustomer(request, key);
  const meter = await post(request, key, "/v1/meters", { customerId, currency: "usd", thresholdMinor: 100, prepaid: false });
  // 0.4 of a cent per call: 3 calls (1.2 ¢), then 250 calls (100 ¢) crosses the $1.00 threshold.
  await post(request, key, `/v1/meters/${meter.id}/usage`, { quantity: 3, unitPriceMinor: 400_000, idempotencyKey: "batch-1" });
  await post(request, key, `/v1/meters/${meter.id}/usage`, { quantity: 250, unitPriceMinor: 400_000, idempotencyKey: "batch-2" });
  await tick(request);
  const settlements = await (
    await request.get(`/v1/payment_intents?meterId=${meter.id}`, { headers: { Authorization: `Bearer ${key}` } })
  ).json();
  expect(settlements.data).toHaveLength(1);
  expect(settlements.data[0].amount).toBe(101); // whole cents billed; 0.2 ¢ carries over

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Meters" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meters" })).toBeVisible();
  const row = page.getByTestId("row").filter({ hasText: meter.id });
  await expect(row.getByTestId("meter-accrued")).toHaveText("$0.002");
  await expect(row.getByTestId("meter-billed")).toHaveText("$1.01");

  await row.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: meter.id })).toBeVisible();
  await expect(page.getByTestId("meter-accrued")).toHaveText("$0.002");
  await expect(page.getByTestId("meter-billed")).toHaveText("$1.01");
  await expect(page.getByTestId("meter-threshold")).toHaveText("$1.00");
  await expect(page.getByTestId("meter-used")).toHaveText("$1.012");
  await expect(page.getByTestId("meter-budget")).toHaveCount(0);
  const settlementRows = page.getByRole("table", { name: "Payments" }).getByTestId("row");
  await expect(settlementRows).toHaveCount(1);
  await expect(settlementRows).toContainText("$1.01");
  await expect(settlementRows).toContainText("Settlement");
  await expect(settlementRows).toContainText(settlements.data[0].id);
  await expect(settlementRows.getByTestId("status")).toHaveAttribute("data-status", settlements.data[0].status);
  const usageRows = page.getByRole("table", { name: "Recent usage records" }).getByTestId("row");
  await expect(usageRows).toHaveCount(2);
  await expect(usageRows.first()).toContainText("batch-2");
  await expect(usageRows.first()).toContainText("$1.00");
  await expect(usageRows.nth(1)).toContainText("$0.012");
  await screenshot(page, "dashboard-meter-detail");
  await expectAccessible(page);
});

test("a prepaid meter: funded budget, reserved and available; its funding and reservations; merchant B gets the 404 page", async ({
  page,
  request,
  browser,
}) => {
  await newSignedInMerchant(page, "Prepaid Prompts");
  const key = await createApiKeyInDashboard(page);
  const customerId = await fundedCustomer(request, key);
  const meter = await post(request, key, "/v1/meters", {
    customerId,
    currency: "usd",
    thresholdMinor: 100,
    prepaid: true,
    budgetMinor: 500,
  });
  const first = await post(request, key, `/v1/meters/${meter.id}/reservations`, { quantity: 10, unitPriceMinor: 1_000_000 });
  await post(request, key, `/v1/meters/${meter.id}/reservations/${first.id}/commit`, {});
  await post(request, key, `/v1/meters/${meter.id}/reservations`, { quantity: 5, unitPriceMinor: 1_000_000 });

  await page.goto(`/dashboard/meters/${meter.id}`);
  await expect(page.getByTestId("meter-funded")).toHaveText("$5.00");
  await expect(page.getByTestId("meter-budget")).toHaveText("$5.00");
  await expect(page.getByTestId("meter-reserved")).toHaveText("$0.05");
  await expect(page.getByTestId("meter-available")).toHaveText("$4.85");
  await expect(page.getByTestId("meter-used")).toHaveText("$0.10");
  await expect(page.getByTestId("meter-refunded")).toHaveText("$0.00");
  await expect(page.getByTestId("meter-accrued")).toHaveCount(0);
  const reservations = page.getByRole("table", { name: "Recent reservations" }).getByTestId("row");
  await expect(reservations.getByTestId("status")).toHaveText(["Held", "Committed"]);
  // The budget was charged up front, once: one funding payment, no settlements.
  const payments = page.getByRole("table", { name: "Payments" }).getByTestId("row");
  await expect(payments).toHaveCount(1);
  await expect(payments).toContainText("Funding");
  await expect(payments).toContainText("$5.00");

  const other = await browser.newContext();
  const pageB = await other.newPage();
  await newSignedInMerchant(pageB, "Someone Else");
  const res = await pageB.goto(`/dashboard/meters/${meter.id}`);
  expect(res?.status()).toBe(404);
  await expect(pageB.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await pageB.goto("/dashboard/meters");
  await expect(pageB.getByText("No meters yet")).toBeVisible();
  await other.close();
});

test("the meter page charts usage per hour and per day from the usage summary", async ({ page, request }) => {
  await newSignedInMerchant(page, "Charted Calls");
  const key = await createApiKeyInDashboard(page);
  const customerId = await fundedCustomer(request, key);
  const meter = await post(request, key, "/v1/meters", { customerId, currency: "usd", thresholdMinor: 100, prepaid: false });
  // A batch with usage stated 3 hours ago (10 x 0.4 ¢) and now (5 x 0.4 ¢): two bars by hour, one or two by day.
  const hour = 3600_000;
  const threeHoursAgo = new Date(Math.floor(Date.now() / hour) * hour - 3 * hour + 60_000).toISOString();
  const records = [
    { meterId: meter.id, quantity: 10, unitPriceMinor: 400_000, idempotencyKey: "early", timestamp: threeHoursAgo },
    { meterId: meter.id, quantity: 5, unitPriceMinor: 400_000, idempotencyKey: "late" },
  ];
  const answer = await post(request, key, "/v1/meters/usage_batches", { records });
  expect(answer.accepted).toBe(2);
  const summary = await (
    await request.get(`/v1/meters/${meter.id}/usage_summary?interval=hour`, { headers: { Authorization: `Bearer ${key}` } })
  ).json();

  await page.goto(`/dashboard/meters/${meter.id}`);
  const chart = page.getByTestId("usage-chart");
  await expect(chart).toHaveAttribute("data-interval", "hour");
  await expect(chart).toHaveAttribute("data-buckets", String(summary.data.length));
  await expect(chart.getByRole("img")).toHaveAttribute(
    "aria-label",
    /Usage per hour, last 24 hours \(UTC\): \$0\.06 for 15 units in total\./,
  );
  await expect(chart.getByTestId("usage-bar")).toHaveCount(2);
  await expect(page.getByTestId("usage-chart-total")).toContainText("$0.06");
  await expect(page.getByRole("link", { name: "Last 24 hours" })).toHaveAttribute("aria-current", "page");
  // The screen-reader table carries the same numbers as the bars.
  await expect(chart.getByRole("table")).toContainText("$0.04");
  await expect(chart.getByRole("table")).toContainText("$0.02");
  await screenshot(page, "dashboard-meter-usage-chart");
  await expectAccessible(page);

  await page.getByRole("navigation", { name: "Usage interval" }).getByRole("link", { name: "Last 30 days" }).click();
  await expect(page).toHaveURL(/usage=day/);
  await expect(chart).toHaveAttribute("data-interval", "day");
  await expect(chart).toHaveAttribute("data-buckets", "30");
  await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /Usage per day, last 30 days \(UTC\): \$0\.06/);
  await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "page");
  await expectAccessible(page);
});
