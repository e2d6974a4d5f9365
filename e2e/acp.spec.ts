// ACP orders in Chromium (docs/acp.md): an agent platform, holding a key the merchant made in the dashboard,
// creates a checkout session from the catalog, updates it, delegates a card and completes it over /acp; the
// order's permalink page shows the line items and the status (then the partial refund), and the dashboard's
// order page shows the same ACP order with its line items, source ACP and its checkout session. axe and
// screenshots on the permalink page.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";

const acpHeaders = (key: string) => ({ Authorization: `Bearer ${key}`, "API-Version": "2026-01-16", "Idempotency-Key": randomUUID() });

async function post(request: APIRequestContext, key: string, path: string, data: unknown, status = 200) {
  const res = await request.post(path, { headers: acpHeaders(key), data });
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

test("an ACP order: permalink page and dashboard order page show its line items", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await newSignedInMerchant(page, "Northwind Books");
  const key = await createApiKeyInDashboard(page);
  const auth = { Authorization: `Bearer ${key}` };
  const novel = await (
    await request.post("/v1/products", { headers: auth, data: { name: "The Long Voyage (e-book)", unitAmount: 1299, currency: "usd" } })
  ).json();
  const audio = await (
    await request.post("/v1/products", { headers: auth, data: { name: "The Long Voyage (audiobook)", unitAmount: 1999, currency: "usd" } })
  ).json();

  const session = await post(request, key, "/acp/checkout_sessions", { items: [{ id: novel.id, quantity: 1 }] }, 201);
  const updated = await post(request, key, `/acp/checkout_sessions/${session.id}`, {
    items: [
      { id: novel.id, quantity: 2 },
      { id: audio.id, quantity: 1 },
    ],
  });
  expect(updated.totals.find((t: { type: string }) => t.type === "total").amount).toBe(2 * 1299 + 1999);
  const token = await post(
    request,
    key,
    "/acp/agentic_commerce/delegate_payment",
    {
      payment_method: {
        type: "card",
        card_number_type: "fpan",
        number: "4242424242424242",
        display_card_funding_type: "credit",
        metadata: {},
      },
      allowance: {
        reason: "one_time",
        max_amount: 5000,
        currency: "usd",
        checkout_session_id: session.id,
        merchant_id: session.payment_provider.merchant_id,
        expires_at: new Date(Date.now() + 600_000).toISOString(),
      },
      risk_signals: [{ type: "card_testing", score: 3, action: "authorized" }],
      metadata: { source: "e2e" },
    },
    201,
  );
  const completed = await post(request, key, `/acp/checkout_sessions/${session.id}/complete`, {
    payment_data: { token: token.id, provider: "service" },
  });
  expect(completed.status).toBe("completed");
  const order = completed.order;

  // The permalink page the agent shows the buyer.
  await page.goto(order.permalink_url);
  await expect(page.getByTestId("order-status")).toHaveText("Paid");
  await expect(page.getByRole("heading", { name: "Order from Northwind Books" })).toBeVisible();
  await expect(page.getByTestId("amount-due")).toHaveText("$45.97");
  await expect(page.getByText("The Long Voyage (e-book)")).toBeVisible();
  await expect(page.getByText("Qty 2 × $12.99")).toBeVisible();
  await expect(page.getByText("The Long Voyage (audiobook)")).toBeVisible();
  await expect(page.getByTestId("checkout-session-id")).toHaveText(session.id);
  await expectAccessible(page);
  await screenshot(page, "acp-order-permalink");

  // A partial refund shows there too.
  const paymentIntentId = (await (await request.get(`/v1/orders/${order.id}`, { headers: auth })).json()).paymentIntentId;
  expect((await request.post("/v1/refunds", { headers: auth, data: { paymentIntentId, amount: 1999 } })).status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("Partially refunded");
  await expect(page.getByTestId("amount-refunded")).toHaveText("$19.99");

  // The dashboard's order page: the same order, its line items, source ACP and its checkout session.
  await page.goto(`/dashboard/orders/${order.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("$45.97");
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("source")).toHaveText("ACP");
  const items = page.getByRole("table", { name: "Items" });
  await expect(items.getByText("The Long Voyage (e-book)")).toBeVisible();
  await expect(items.getByText("The Long Voyage (audiobook)")).toBeVisible();
  await expect(page.getByTestId("acp-session")).toHaveText(session.id);
  await screenshot(page, "acp-order-dashboard");

  // Another id is a plain 404.
  const missing = await page.goto("/acp/orders/ord_000000000000000000000000");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
});
