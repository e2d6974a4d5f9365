// A spending agent's page in Chromium (docs/spending-policies.md "Visibility"): the payer's agent with a $1.00 daily
// budget pays $0.40 with a shared payment token (source spt) and $0.35 through the paywall with an API key naming
// it (source paywall, the key made in the dashboard); a third charge of $0.40 is refused (budget_exceeded). The
// payer opens Spending agents, then the agent: $0.75 spent of $1.00 today, both payments with their source, the
// refusal with its rule. The page is also refused to another merchant (404). axe clean.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant, dashboardPost } from "./support/dashboard";
import { createMerchant, expectAccessible } from "./support/pay";

async function post(request: APIRequestContext, key: string, path: string, data: unknown) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${key}` }, data });
  return { status: res.status(), body: await res.json() };
}

test("a spending agent's page shows its spend against its budget, its payments by source and its refusals", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await newSignedInMerchant(page, "Spending payer");
  const payerKey = await createApiKeyInDashboard(page);
  const shop = createMerchant("Spending shop");

  const agent = await post(request, payerKey, "/v1/spending_agents", {
    name: "Research agent",
    policy: { budgets: [{ window: "day", currency: "usd", amount: 100 }] },
  });
  expect(agent.status).toBe(201);
  const mint = () =>
    post(request, payerKey, "/v1/shared_payment_tokens", {
      paymentMethod: "pm_card_visa",
      maxAmount: 1000,
      currency: "usd",
      spendingAgentId: agent.body.id,
    });
  const redeem = async (amount: number) =>
    post(request, shop.testSecretKey, `/v1/shared_payment_tokens/${(await mint()).body.id}/redeem`, { amount, currency: "usd" });

  expect((await redeem(40)).status).toBe(201);
  await page.goto("/dashboard/api-keys");
  const key = await dashboardPost(page, "/api/dashboard/api-keys", { name: "Agent key", spendingAgentId: agent.body.id });
  expect(key.status).toBe(201);
  const paid = await post(request, key.body.secret, "/v1/paywall/pay", {
    merchantId: shop.merchantId,
    amount: 35,
    currency: "usd",
    sku: "tool:search",
    paymentMethod: "pm_card_visa",
  });
  expect(paid.status).toBe(201);
  const refused = await redeem(40);
  expect(refused.status).toBe(402);
  expect(refused.body.error.details.reason).toBe("budget_exceeded");

  await page.goto("/dashboard");
  await page.getByRole("navigation", { name: "Dashboard" }).first().getByRole("link", { name: "Spending agents" }).click();
  await expect(page).toHaveURL(/\/dashboard\/spending-agents$/);
  await page.getByRole("link", { name: "Research agent" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/spending-agents/${agent.body.id}$`));
  await expect(page.getByRole("heading", { name: "Research agent" })).toBeVisible();

  const budgets = page.getByRole("table", { name: "Budgets" });
  await expect(budgets).toContainText("Today (UTC)");
  await expect(budgets).toContainText("$0.75");
  await expect(budgets).toContainText("$1.00");
  await expect(budgets).toContainText("$0.25");

  const payments = page.getByRole("table", { name: "Payments of this spending agent" });
  await expect(payments.getByRole("row")).toHaveCount(3); // the header and two payments
  await expect(payments.locator('[data-testid="source"][data-source="spt"]')).toHaveCount(1);
  await expect(payments.locator('[data-testid="source"][data-source="paywall"]')).toHaveCount(1);
  await expect(payments).toContainText("$0.40");
  await expect(payments).toContainText("$0.35");

  // The refusal's event is written just after the refused request: the page shows it once it is.
  const refusals = page.getByRole("table", { name: "Policy refusals of this spending agent" });
  await expect(async () => {
    await page.reload();
    await expect(refusals.getByTestId("refusal-reason")).toHaveText(["budget_exceeded"], { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(refusals).toContainText("$0.40");
  await expectAccessible(page);

  // Another merchant's dashboard: the 404 page.
  const other = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  const stranger = await other.newPage();
  await newSignedInMerchant(stranger, "Stranger");
  const response = await stranger.goto(`/dashboard/spending-agents/${agent.body.id}`);
  expect(response?.status()).toBe(404);
  await other.close();
});
