// Helpers for the webhook specs: run the service's tick (fan-out + sender) as its cron does, and add an
// endpoint through the dashboard's form.
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import type { Receiver } from "../../tests/helpers/webhook-receiver";

export { startReceiver, type Receiver } from "../../tests/helpers/webhook-receiver";

/** The e2e server's CRON_SECRET (playwright.config.ts). */
const CRON_SECRET = "e2e-cron-secret";

export async function tick(request: APIRequestContext): Promise<void> {
  const res = await request.get("/api/cron/tick", { headers: { Authorization: `Bearer ${CRON_SECRET}` } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Ticks until the receiver holds `count` deliveries (the sender works on ticks, as under cron). */
export async function tickUntilReceived(request: APIRequestContext, receiver: Receiver, count: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.received.length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${receiver.received.length}`);
    await tick(request);
    if (receiver.received.length < count) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Adds an endpoint on /dashboard/webhooks; returns its id and the secret shown once. */
export async function addEndpointInDashboard(page: Page, url: string, eventTypes: string[] = []): Promise<{ id: string; secret: string }> {
  await page.goto("/dashboard/webhooks");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Endpoint URL").fill(url);
  if (eventTypes.length) {
    await dialog.getByLabel("Selected event types").check();
    const group = dialog.getByRole("group", { name: "Event types" });
    for (const box of await group.getByRole("checkbox").all())
      await box.setChecked(eventTypes.includes((await box.locator("xpath=..").textContent())!.trim()));
  }
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await dialog.getByTestId("new-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await dialog.getByRole("link", { name: "Open endpoint" }).click();
  await page.waitForURL(/\/dashboard\/webhooks\/we_/);
  return { id: page.url().split("/").pop()!, secret };
}
