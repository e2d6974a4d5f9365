// Every dashboard page on a phone (360 x 740) and a laptop (1280 x 800): nothing overflows sideways,
// every table action is on screen (pinned at the right edge while the table scrolls), the navigation
// reaches every page from a "Menu", axe finds nothing serious, and each page is photographed at both sizes.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, payNewCheckoutOnPayPage, screenshot } from "./support/pay";
import { addEndpointInDashboard } from "./support/webhooks";

async function post(request: APIRequestContext, key: string, path: string, data: Record<string, unknown>) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${key}` }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

/** Page width never exceeds the viewport; every button of a table row is fully on screen. */
async function expectFits(page: Page, label: string) {
  const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
    // The outermost elements that stick out on the right, to name the culprit in the failure message.
    const out = [...document.querySelectorAll("body *")].filter(
      (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !el.closest("[role=group]"),
    );
    const outermost = out.filter(
      (el) =>
        !out.some((other) => other !== el && other.contains(el) && other.getBoundingClientRect().right >= el.getBoundingClientRect().right),
    );
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      widest: outermost
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} (${Math.round(el.getBoundingClientRect().right)}px): ${(el.textContent ?? "").slice(0, 40)}`,
        ),
    };
  });
  expect
    .soft(scrollWidth, `${label}: page is ${scrollWidth}px wide in a ${innerWidth}px window; sticking out: ${widest.join(" | ")}`)
    .toBeLessThanOrEqual(innerWidth);
  for (const button of await page.locator("table button").all()) {
    const box = await button.boundingBox();
    if (!box) continue; // hidden (e.g. a secondary column on phones)
    expect.soft(box.x, `${label}: a table action starts off-screen`).toBeGreaterThanOrEqual(0);
    expect.soft(box.x + box.width, `${label}: a table action ends off-screen`).toBeLessThanOrEqual(innerWidth + 0.5);
  }
}

test("every dashboard page fits a phone and a laptop", async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await newSignedInMerchant(page, "Very Long Business Name Coffee Roasters International");
  const key = await createApiKeyInDashboard(page, "A rather long key name for a phone screen");
  const paid = await payNewCheckoutOnPayPage(page, request, key);
  const customer = await post(request, key, "/v1/customers", { name: "Agent payer", email: "agent-payer-with-a-long-address@example.com" });
  await post(request, key, `/v1/customers/${customer.id}/fund`, { amount: 10_000, currency: "usd" });
  const meter = await post(request, key, "/v1/meters", { customerId: customer.id, currency: "usd", thresholdMinor: 100, prepaid: false });
  await post(request, key, `/v1/meters/${meter.id}/usage`, { quantity: 3, unitPriceMinor: 400_000, idempotencyKey: "mobile-1" });
  await post(request, key, "/v1/products", { name: "Single-origin espresso beans, 1 kg bag", unitAmount: 2450, currency: "usd" });
  await post(request, key, "/v1/paid_resources", {
    name: "Weather forecast for one city",
    amount: 5,
    currency: "usd",
    content: { forecast: "sunny" },
  });
  const endpoint = await addEndpointInDashboard(page, "https://hooks.example.com/a/very/long/path/for/webhook/deliveries/of/this/merchant");
  const payments = await (await request.get(`/v1/payment_intents?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json();
  const events = await (await request.get(`/v1/events?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).json();

  const pages: [string, string][] = [
    ["home", "/dashboard"],
    ["orders", "/dashboard/orders"],
    ["order", `/dashboard/orders/${paid.orderId}`],
    ["payments", "/dashboard/payments"],
    ["payment", `/dashboard/payments/${payments.data[0].id}`],
    ["disputes", "/dashboard/disputes"],
    ["customers", "/dashboard/customers"],
    ["customer", `/dashboard/customers/${customer.id}`],
    ["search", "/dashboard/search?q=agent"],
    ["checkouts", "/dashboard/checkouts"],
    ["checkout", `/dashboard/checkouts/${paid.id}`],
    ["products", "/dashboard/products"],
    ["paid-resources", "/dashboard/paid-resources"],
    ["meters", "/dashboard/meters"],
    ["meter", `/dashboard/meters/${meter.id}`],
    ["payment-tokens", "/dashboard/shared-payment-tokens"],
    ["webhooks", "/dashboard/webhooks"],
    ["webhook", `/dashboard/webhooks/${endpoint.id}`],
    ["events", "/dashboard/events"],
    ["event", `/dashboard/events/${events.data[0].id}`],
    ["api-keys", "/dashboard/api-keys"],
    ["connected-apps", "/dashboard/connected-apps"],
    ["settings", "/dashboard/settings"],
    ["not-found", "/dashboard/no-such-page"],
  ];
  for (const [width, height] of [
    [360, 740],
    [1280, 800],
  ]) {
    await page.setViewportSize({ width, height });
    for (const [name, path] of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectFits(page, `${name} at ${width}px`);
      await screenshot(page, `dashboard-${name}-${width}`);
      if (width === 360) await expectAccessible(page);
      if (process.env.DEBUG_FIT) console.log(name, width, "ok");
    }
  }

  // On a phone the menu reaches every page.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/dashboard");
  const menu = page.getByTestId("mobile-nav");
  await menu.getByText("Menu").click();
  await menu.getByRole("link", { name: "Connected apps" }).click();
  await expect(page).toHaveURL(/\/dashboard\/connected-apps$/);
  await expect(menu).toContainText("Menu · Connected apps");
});
