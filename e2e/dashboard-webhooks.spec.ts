// Webhooks in the dashboard, in Chromium, against a real local receiver: an endpoint added from the
// dashboard gets the real events of a checkout paid on the pay page (signed with the secret shown once),
// the deliveries log shows them with their response codes, rotate shows the new secret once, resend,
// disable/enable, delete, another merchant's endpoint is the 404 page, and axe finds nothing serious.
import { expect, test } from "@playwright/test";
import { verifyWebhook } from "agent-payments-sdk";
import { createApiKeyInDashboard, enrollTwoFactor, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, payNewCheckoutOnPayPage, screenshot } from "./support/pay";
import { addEndpointInDashboard, startReceiver, tickUntilReceived, type Receiver } from "./support/webhooks";

let receiver: Receiver;

test.beforeEach(async () => {
  receiver = await startReceiver();
});

test.afterEach(async () => {
  await receiver.close();
});

test("payer flow: a checkout paid on the pay page reaches the endpoint added in the dashboard; the log shows HTTP 200; rotate shows the new secret once; resend", async ({
  page,
  request,
}) => {
  await newSignedInMerchant(page, "Hooked Coffee");
  const key = await createApiKeyInDashboard(page);
  const { id, secret } = await addEndpointInDashboard(page, receiver.url, ["order.paid", "payment_intent.captured"]);
  await expect(page.getByTestId("endpoint-events").getByRole("listitem")).toHaveText(["order.paid", "payment_intent.captured"]);
  await expect(page.getByText("No deliveries yet")).toBeVisible();

  // The payer pays on the hosted page.
  const checkout = await payNewCheckoutOnPayPage(page, request, key);

  await tickUntilReceived(request, receiver, 2);
  const events = receiver.received.map((delivery) => verifyWebhook(delivery.rawBody, delivery.headers["x-service-signature"], secret));
  expect(events.map((event) => event.type).sort()).toEqual(["order.paid", "payment_intent.captured"]);
  const orderPaid = events.find((event) => event.type === "order.paid")!;
  expect((orderPaid.data as { object: { id: string } }).object.id).toBe(checkout.orderId);

  // The deliveries log: both attempts, HTTP 200, their durations.
  await page.goto(`/dashboard/webhooks/${id}`);
  const rows = page.getByTestId("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.getByTestId("response")).toHaveText(["HTTP 200", "HTTP 200"]);
  await expect(rows.getByTestId("status").first()).toHaveText("Succeeded");
  await expect(rows.filter({ hasText: "order.paid" })).toContainText(orderPaid.id);
  await expect(rows.filter({ hasText: "order.paid" }).getByRole("link", { name: orderPaid.id })).toHaveAttribute(
    "href",
    `/dashboard/events/${orderPaid.id}`,
  );
  await expect(rows.getByTestId("duration").first()).toHaveText(/^\d+ ms$/);
  await screenshot(page, "dashboard-webhook-endpoint");

  // Rotate: the new secret once, the old one still signing for 24 h.
  await page.getByRole("button", { name: "Rotate secret" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("24 hours");
  await dialog.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = (await dialog.getByTestId("new-secret").textContent())!.trim();
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await dialog.getByRole("button", { name: "Done" }).click();
  await page.reload();
  await expect(page.getByText(rotated)).toHaveCount(0);
  await expect(page.getByTestId("new-secret")).toHaveCount(0);
  await expect(page.getByTestId("secret-status")).toContainText("The previous secret also signs until");

  // Resend order.paid from its row: delivered again, signed with the new AND the previous secret.
  await rows
    .filter({ hasText: "order.paid" })
    .getByRole("button", { name: `Resend ${orderPaid.id}` })
    .click();
  await expect(page.getByTestId("toast").filter({ hasText: "Event queued" })).toBeVisible();
  await tickUntilReceived(request, receiver, 3);
  const again = receiver.received[2];
  expect(verifyWebhook(again.rawBody, again.headers["x-service-signature"], rotated).id).toBe(orderPaid.id);
  expect(verifyWebhook(again.rawBody, again.headers["x-service-signature"], secret).id).toBe(orderPaid.id);
  await page.reload();
  await expect(rows).toHaveCount(3);
});

test("send test event: a sample of the chosen type reaches only this endpoint; a failed attempt shows its code, error and next attempt, then the retry succeeds", async ({
  page,
  request,
}) => {
  await newSignedInMerchant(page, "Test Event Tacos");
  const bystander = await startReceiver();
  await addEndpointInDashboard(page, bystander.url);
  receiver.respond = (_delivery, index) => (index === 0 ? 500 : 200);
  const { id, secret } = await addEndpointInDashboard(page, receiver.url, ["payment_intent.captured", "order.refunded"]);

  await page.getByRole("button", { name: "Send test event" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Event type").selectOption("order.refunded");
  await dialog.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "queued" })).toBeVisible();
  // Until the sender runs, it waits in the Queued table.
  const queued = page.getByRole("table", { name: "Queued deliveries" }).getByTestId("row");
  await expect(queued).toHaveCount(1);
  await expect(queued.getByTestId("event-type")).toHaveText("order.refunded");
  await expect(queued.getByTestId("status")).toHaveText("Queued");

  await tickUntilReceived(request, receiver, 1);
  const event = verifyWebhook(receiver.received[0].rawBody, receiver.received[0].headers["x-service-signature"], secret);
  expect(event.type).toBe("order.refunded");
  expect(event.livemode).toBe(false);
  expect(event.data).toMatchObject({
    object: { object: "order", id: "ord_000000000000000000000000", status: "refunded", amount: 5400, amountRefunded: 5400 },
  });

  await page.reload();
  await expect(page.getByRole("table", { name: "Queued deliveries" })).toHaveCount(0);
  const rows = page.getByRole("table", { name: "Delivery attempts" }).getByTestId("row");
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId("response")).toContainText("HTTP 500");
  await expect(rows.getByTestId("attempt")).toHaveText("#1");
  await expect(rows.getByTestId("status")).toHaveText("Failed");
  await expect(rows.getByTestId("next-attempt")).toHaveText(/UTC$/);

  await new Promise((resolve) => setTimeout(resolve, 1_100)); // the retry is due after 1 s (WEBHOOK_RETRY_SCHEDULE)
  await tickUntilReceived(request, receiver, 2);
  expect(receiver.received[1].event.id).toBe(event.id);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(rows.getByTestId("attempt")).toHaveText(["#2", "#1"]);
  await expect(rows.first().getByTestId("response")).toHaveText("HTTP 200");
  await expect(rows.first().getByTestId("next-attempt")).toHaveText("—");

  // Only the chosen endpoint got the sample; the other endpoint (all events) got nothing.
  expect(bystander.received).toHaveLength(0);
  // The sample is marked apart from real events: in the events list, on its page and on the home page.
  await page.goto("/dashboard/events");
  await expect(page.getByTestId("row").filter({ hasText: event.id }).getByTestId("sample-event")).toHaveText("Test event");
  await page.goto(`/dashboard/events/${event.id}`);
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("sample-event")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByRole("table", { name: "Failed webhook deliveries" }).getByTestId("sample-event").first()).toBeVisible();
  await page.goto(`/dashboard/webhooks/${id}`);
  await bystander.close();
  expect(page.url()).toContain(id);
});

test("edit the event types (a refused URL shown in the dialog), disable and enable, then delete (with confirmation)", async ({ page }) => {
  await newSignedInMerchant(page, "Toggle Tea");
  const { id } = await addEndpointInDashboard(page, receiver.url);
  await expect(page.getByTestId("endpoint-events")).toHaveText("All event types");

  // Edit: narrow it to one event type; a URL the service refuses is shown in the dialog.
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog");
  await edit.getByLabel("Selected event types").check();
  await edit.getByRole("group", { name: "Event types" }).getByLabel("order.refunded").check();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Endpoint updated" })).toBeVisible();
  await expect(page.getByTestId("endpoint-events").getByRole("listitem")).toHaveText(["order.refunded"]);
  await page.getByRole("button", { name: "Edit" }).click();
  await edit.getByLabel("Endpoint URL").fill("ftp://example.com/hooks");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("endpoint-url")).toHaveText(receiver.url);

  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Endpoint disabled" })).toBeVisible();
  await expect(page.getByTestId("status").first()).toHaveText("Disabled");
  await page.getByRole("button", { name: "Enable" }).click();
  await expect(page.getByTestId("status").first()).toHaveText("Enabled");

  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(receiver.url);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/webhooks/${id}$`));
  await page.getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Delete endpoint" }).click();
  await page.waitForURL(/\/dashboard\/webhooks$/);
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await page.goto(`/dashboard/webhooks/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
});

test('delivery log polish: the endpoint\'s 24 h success rate and p50 latency, and "replay all failed since ..." queues every failed delivery again in one go', async ({
  page,
  request,
}) => {
  await newSignedInMerchant(page, "Replay Ramen");
  receiver.respond = () => 500; // down: every attempt fails until the schedule (1 s, 1 s, 1 s) is used up
  const { secret } = await addEndpointInDashboard(page, receiver.url, ["order.refunded"]);
  await expect(page.getByTestId("endpoint-health")).toHaveText("No attempts.");

  // Two test events, each failing all 4 attempts (the first and 3 retries a second apart).
  for (let i = 0; i < 2; i++) {
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("table", { name: "Queued deliveries" }).getByTestId("row")).toHaveCount(i + 1);
  }
  for (let attempts = 1; attempts <= 4; attempts++) {
    await tickUntilReceived(request, receiver, 2 * attempts);
    if (attempts < 4) await new Promise((resolve) => setTimeout(resolve, 1_100));
  }
  await page.reload();
  const rows = page.getByRole("table", { name: "Delivery attempts" }).getByTestId("row");
  await expect(rows).toHaveCount(8);
  await expect(page.getByTestId("success-rate")).toHaveText("0.0%");
  await expect(page.getByTestId("endpoint-health")).toContainText("of 8 attempts succeeded");
  await expect(page.getByTestId("p50-latency")).toHaveText(/^\d+ ms$/);
  expect(receiver.received).toHaveLength(8);
  const eventIds = [...new Set(receiver.received.map((delivery) => delivery.event.id))];
  expect(eventIds).toHaveLength(2);

  // The receiver is back; "Replay failed…" since a time AFTER the failures queues nothing...
  receiver.respond = () => 200;
  await page.getByRole("button", { name: "Replay failed…" }).click();
  const dialog = page.getByRole("dialog");
  const since = dialog.getByLabel("Failed since");
  const later = new Date(Date.now() + 3600_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  await since.fill(
    `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T${pad(later.getHours())}:${pad(later.getMinutes())}`,
  );
  await dialog.getByRole("button", { name: "Replay all failed" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "No failed deliveries since then." })).toBeVisible();

  // ...and since the default (24 hours ago) queues both, in one statement; the next tick sends them.
  await page.getByRole("button", { name: "Replay failed…" }).click();
  await expect(since).not.toHaveValue("");
  await dialog.getByRole("button", { name: "Replay all failed" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "2 failed deliveries queued again." })).toBeVisible();
  await tickUntilReceived(request, receiver, 10);
  const replayed = receiver.received
    .slice(8)
    .map((delivery) => verifyWebhook(delivery.rawBody, delivery.headers["x-service-signature"], secret).id);
  expect(replayed.sort()).toEqual([...eventIds].sort());

  // The log and the health line count the replayed attempts (#5 of each, HTTP 200): 2 of 10 succeeded.
  await page.reload();
  await expect(rows).toHaveCount(10);
  await expect(rows.getByTestId("attempt").first()).toHaveText("#5");
  await expect(rows.first().getByTestId("response")).toHaveText("HTTP 200");
  await expect(page.getByTestId("success-rate")).toHaveText("20.0%");
  await expect(page.getByTestId("endpoint-health")).toContainText("of 10 attempts succeeded");
  await expect(page.getByTestId("p50-latency")).toHaveText(/^\d+ ms$/);
  await expectAccessible(page);
});

// The server's BASE_URL is a loopback address (a local installation), so private addresses are allowed
// here; a deployment refuses them in both modes (tests/http/webhook-ssrf.http.test.ts). A URL with
// credentials is refused everywhere.
test("live mode: a refused URL shows the reason in the dialog and nothing is created", async ({ page }) => {
  await newSignedInMerchant(page, "Live Hooks Ltd");
  // Owners act in live mode only with two-factor sign-in on (e2e/dashboard-two-factor.spec.ts).
  await enrollTwoFactor(page);
  await page.goto("/dashboard/webhooks");
  await page.getByRole("switch", { name: "Test mode" }).click();
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "false");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Add a live-mode endpoint" })).toBeVisible();
  await dialog.getByLabel("Endpoint URL").fill(receiver.url.replace("http://", "http://user:secret@"));
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText(/credentials/i);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("No endpoints yet")).toBeVisible();
});

test("merchant B never sees merchant A's endpoint: its URL is the 404 page", async ({ page, browser }) => {
  await newSignedInMerchant(page, "Merchant A");
  const { id } = await addEndpointInDashboard(page, receiver.url);

  const other = await browser.newContext();
  const pageB = await other.newPage();
  await newSignedInMerchant(pageB, "Merchant B");
  const res = await pageB.goto(`/dashboard/webhooks/${id}`);
  expect(res?.status()).toBe(404);
  await expect(pageB.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(pageB.getByText(receiver.url)).toHaveCount(0);
  await pageB.goto("/dashboard/webhooks");
  await expect(pageB.getByText("No endpoints yet")).toBeVisible();
  await other.close();
});

test("axe-core: no serious or critical violations on the webhooks list, the add dialog and an endpoint", async ({ page }) => {
  await newSignedInMerchant(page);
  await page.goto("/dashboard/webhooks");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Endpoint URL").fill(receiver.url);
  await dialog.getByLabel("Selected event types").check();
  await dialog.getByRole("button", { name: "Add endpoint" }).click(); // none ticked: asked for one, nothing created
  await expect(dialog.getByText("Tick at least one event type, or choose all event types.")).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await addEndpointInDashboard(page, receiver.url);
  await expectAccessible(page);
});
