// Human approval in the dashboard, in Chromium (docs/approvals.md): the payer's spending agent has a $0.30 approval
// threshold; a shop's ACP session paying $0.50 with the agent's token waits in pending_approval. The payer's owner
// opens Approvals, approves it (with the confirmation dialog), and the ACP order is paid once; approving the same
// request again (the API, as a second click would) changes nothing. axe clean.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { createMerchant, expectAccessible } from "./support/pay";

async function post(request: APIRequestContext, key: string, path: string, data: unknown, headers: Record<string, string> = {}) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${key}`, ...headers }, data });
  return { status: res.status(), body: await res.json() };
}

async function get(request: APIRequestContext, key: string, path: string, headers: Record<string, string> = {}) {
  const res = await request.get(path, { headers: { Authorization: `Bearer ${key}`, ...headers } });
  return { status: res.status(), body: await res.json() };
}

const ACP = { "API-Version": "2026-04-17" };

test("a charge above the threshold waits; the payer approves it in the dashboard; the order is paid once", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await newSignedInMerchant(page, "Approving payer");
  const payerKey = await createApiKeyInDashboard(page);
  const shop = createMerchant("Approval shop");

  const agent = await post(request, payerKey, "/v1/spending_agents", {
    name: "Shopping agent",
    policy: { approvalThreshold: [{ currency: "usd", amount: 30 }] },
  });
  expect(agent.status).toBe(201);
  const product = await post(request, shop.testSecretKey, "/v1/products", { name: "Report", unitAmount: 50, currency: "usd" });
  const token = await post(request, payerKey, "/v1/shared_payment_tokens", {
    paymentMethod: "pm_card_visa",
    maxAmount: 1000,
    currency: "usd",
    merchantId: shop.merchantId,
    spendingAgentId: agent.body.id,
  });
  expect(token.status).toBe(201);
  const session = await post(
    request,
    shop.testSecretKey,
    "/acp/checkout_sessions",
    {
      line_items: [{ id: product.body.id }],
      currency: "usd",
      capabilities: { payment: { handlers: [{ id: "card", name: "dev.acp.tokenized.card" }] } },
    },
    {
      ...ACP,
      "Idempotency-Key": `create-${Date.now()}`,
    },
  );
  expect(session.status).toBe(201);
  const waiting = await post(
    request,
    shop.testSecretKey,
    `/acp/checkout_sessions/${session.body.id}/complete`,
    {
      buyer: { email: "agent-buyer@example.com", first_name: "Ada" },
      payment_data: { handler_id: "shared_payment_token", instrument: { type: "card", credential: { type: "spt", token: token.body.id } } },
    },
    { ...ACP, "Idempotency-Key": `complete-${Date.now()}` },
  );
  expect(waiting.status).toBe(200);
  expect(waiting.body.status).toBe("pending_approval");

  await page.goto("/dashboard");
  await page.getByRole("navigation", { name: "Dashboard" }).first().getByRole("link", { name: "Approvals" }).click();
  await expect(page).toHaveURL(/\/dashboard\/approvals$/);
  const list = await get(request, payerKey, "/v1/approval_requests?status=pending");
  const requestId = list.body.data[0].id as string;
  await expectAccessible(page);

  await page.getByRole("button", { name: `Approve ${requestId}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("$0.50");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Approved: the payment was made.")).toBeVisible();
  await expect(page.getByRole("button", { name: `Approve ${requestId}` })).toHaveCount(0);

  const approved = await get(request, payerKey, `/v1/approval_requests/${requestId}`);
  expect(approved.body).toMatchObject({ status: "approved", decidedVia: "dashboard" });
  const paid = await get(request, shop.testSecretKey, `/acp/checkout_sessions/${session.body.id}`, ACP);
  expect(paid.body.status).toBe("completed");
  const again = await post(request, payerKey, `/v1/approval_requests/${requestId}/approve`, {});
  expect(again.status).toBe(200);
  expect(again.body.paymentIntentId).toBe(approved.body.paymentIntentId);
  const payments = await get(request, shop.testSecretKey, "/v1/payment_intents?limit=100");
  expect(payments.body.data.filter((p: { status: string }) => ["captured", "settled"].includes(p.status))).toHaveLength(1);
});
