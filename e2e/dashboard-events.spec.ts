// The events pages in Chromium: an order paid on /pay produces events that the events page lists (the
// same as GET /v1/events, newest first), the type filter narrows them, an event's page shows its JSON and
// its webhook deliveries (a local receiver: HTTP 200, one attempt) with a resend per delivery; merchant B
// and A's live mode get the 404 page for A's event; axe and screenshots.
import { expect, test } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, getJson, payNewCheckoutOnPayPage, screenshot } from "./support/pay";
import { addEndpointInDashboard, startReceiver, tickUntilReceived, type Receiver } from "./support/webhooks";

let receiver: Receiver;

test.beforeEach(async () => {
  receiver = await startReceiver();
});

test.afterEach(async () => {
  await receiver.close();
});

test("an order paid on /pay shows up as events; filter by type; the detail shows the payload and deliveries, resend; merchant B gets 404", async ({
  page,
  request,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await newSignedInMerchant(page, "Eventful Espresso");
  const key = await createApiKeyInDashboard(page);
  await addEndpointInDashboard(page, receiver.url, ["order.paid", "payment_intent.captured"]);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Events" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  await expect(page.getByText("No events yet")).toBeVisible();

  const checkout = await payNewCheckoutOnPayPage(page, request, key);
  await tickUntilReceived(request, receiver, 2);

  // The list is GET /v1/events: same events, same order (newest first).
  const api = await getJson(request, key, "/v1/events");
  const apiTypes = (api.data as { type: string }[]).map((event) => event.type);
  expect(apiTypes).toEqual(expect.arrayContaining(["order.paid", "payment_intent.captured"]));
  await page.goto("/dashboard/events");
  const rows = page.getByTestId("row");
  await expect(rows.getByTestId("event-type")).toHaveText(apiTypes);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-id")))).toEqual(
    api.data.map((event: { id: string }) => event.id),
  );
  await expect(rows.filter({ hasText: "order.paid" })).toContainText(checkout.orderId);
  await screenshot(page, "dashboard-events");
  await expectAccessible(page);

  // Filter by type.
  const filter = page.getByRole("navigation", { name: "Filter by type" });
  await filter.getByRole("link", { name: "order.paid", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/events\?type=order\.paid$/);
  await expect(filter.getByRole("link", { name: "order.paid", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(rows.getByTestId("event-type")).toHaveText(["order.paid"]);
  await filter.getByRole("link", { name: "payment_intent.refunded" }).click();
  await expect(page.getByText("No events of this type")).toBeVisible();
  await filter.getByRole("link", { name: "All", exact: true }).click();
  await expect(rows).toHaveCount(apiTypes.length);

  // The detail: payload and deliveries.
  const orderPaid = api.data.find((event: { type: string }) => event.type === "order.paid");
  await rows.filter({ hasText: "order.paid" }).getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/events/${orderPaid.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("order.paid");
  await expect(page.getByTestId("event-object")).toHaveText(checkout.orderId);
  const payload = JSON.parse((await page.getByTestId("event-payload").textContent())!);
  expect(payload).toEqual(await getJson(request, key, `/v1/events/${orderPaid.id}`));
  expect(payload.data.object.id).toBe(checkout.orderId);
  expect(payload.data.object.status).toBe("paid");

  const deliveries = page.getByRole("group", { name: "Webhook deliveries" }).getByTestId("row");
  await expect(deliveries).toHaveCount(1);
  await expect(deliveries.getByTestId("delivery-endpoint")).toHaveText(receiver.url);
  await expect(deliveries.getByTestId("status")).toHaveText("Succeeded");
  await expect(deliveries.getByTestId("attempts")).toHaveText("1");
  await expect(deliveries.getByTestId("response")).toHaveText("HTTP 200");
  await screenshot(page, "dashboard-event-detail");
  await expectAccessible(page);

  // Resend (the webhooks pages' mutation): a new delivery, sent on the next tick.
  await deliveries.getByRole("button", { name: `Resend to ${receiver.url}` }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Event queued to be sent again." })).toBeVisible();
  await expect(deliveries).toHaveCount(2);
  await expect(deliveries.first().getByTestId("status")).toHaveText("Queued");
  await tickUntilReceived(request, receiver, 3);
  expect(receiver.received[2].event.id).toBe(orderPaid.id);
  await page.reload();
  await expect(deliveries.getByTestId("status")).toHaveText(["Succeeded", "Succeeded"]);

  // 360 px wide: neither page overflows (the payload and the tables scroll inside their own boxes).
  await page.setViewportSize({ width: 360, height: 780 });
  for (const path of [`/dashboard/events/${orderPaid.id}`, "/dashboard/events"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The other mode: the same id is the 404 page.
  await page.getByRole("switch", { name: "Test mode" }).click();
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "false");
  const live = await page.goto(`/dashboard/events/${orderPaid.id}`);
  expect(live?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();

  // Merchant B: A's event id is the 404 page, and B's list is empty.
  const other = await browser.newContext();
  const pageB = await other.newPage();
  await newSignedInMerchant(pageB, "Merchant B");
  const res = await pageB.goto(`/dashboard/events/${orderPaid.id}`);
  expect(res?.status()).toBe(404);
  await expect(pageB.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(pageB.getByText(checkout.orderId)).toHaveCount(0);
  await pageB.goto("/dashboard/events");
  await expect(pageB.getByText("No events yet")).toBeVisible();
  await other.close();
});
