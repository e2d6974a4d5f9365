// Disputes in the dashboard, in Chromium: a payer pays with the test rail's dispute card on the hosted page; the tick
// opens the dispute; the navigation's badge counts it; the merchant opens it from the list, previews the agent
// evidence pack, submits winning evidence with the pack attached and sees it won (and the payment page links it); a
// second dispute is accepted and lost. axe clean at 360 and 1280 px.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, fillCard, getJson, openCheckout, screenshot } from "./support/pay";
import { tick } from "./support/webhooks";

/** The test rail's card that opens a fraudulent dispute after capture (lib/rails/test-cards.ts). */
const DISPUTE_CARD = "4000 0000 0000 0259";

async function payWithDisputeCard(page: Page, request: APIRequestContext, key: string) {
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await fillCard(page, DISPUTE_CARD);
  await page.getByRole("button", { name: "Pay $54.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  return checkout as { id: string; orderId: string };
}

/** Ticks (settlement, then the dispute DISPUTE_TEST_DELAY_SECONDS after capture, or its decision) until `done`. */
async function tickUntil(request: APIRequestContext, done: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await tick(request);
    if (await done()) return;
    if (Date.now() > deadline) throw new Error("the tick did not get there in time");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function disputeOf(request: APIRequestContext, key: string, orderId: string) {
  const order = await getJson(request, key, `/v1/orders/${orderId}`);
  const list = await getJson(request, key, `/v1/disputes?paymentIntentId=${order.paymentIntentId}`);
  return list.data[0] as { id: string; status: string; paymentIntentId: string } | undefined;
}

test("a disputed payment: badge, list, evidence pack preview, winning evidence submitted, won; another accepted, lost", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await newSignedInMerchant(page, "Acme Coffee Roasters");
  const key = await createApiKeyInDashboard(page);
  const first = await payWithDisputeCard(page, request, key);
  const second = await payWithDisputeCard(page, request, key);
  await tickUntil(
    request,
    async () =>
      (await disputeOf(request, key, first.orderId)) !== undefined && (await disputeOf(request, key, second.orderId)) !== undefined,
  );
  const dispute = (await disputeOf(request, key, first.orderId))!;
  const other = (await disputeOf(request, key, second.orderId))!;

  // The badge counts both disputes awaiting a response.
  await page.goto("/dashboard");
  const nav = page.getByRole("navigation", { name: "Dashboard" }).first();
  await expect(nav.getByRole("link", { name: /^Disputes\s*\(2 awaiting a response\)$/ })).toBeVisible();

  await nav.getByRole("link", { name: /^Disputes/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/disputes$/);
  const row = page.getByTestId("row").filter({ hasText: dispute.paymentIntentId });
  await expect(row.getByTestId("status")).toHaveText("Needs response");
  await expect(row.getByTestId("response-due")).toBeVisible();
  await expect(row).toContainText("fraudulent");
  await expectAccessible(page);
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/disputes/${dispute.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("$54.00");

  // The pack previewed: the payment, its protocol and receipt; the PDF downloads.
  const pack = page.getByTestId("evidence-pack");
  await expect(pack).toContainText(dispute.paymentIntentId);
  await expect(pack.getByRole("region", { name: "Payment" })).toContainText("pm_card_createDispute");
  const download = page.waitForEvent("download");
  await pack.getByRole("link", { name: "Download the evidence pack (PDF)" }).click();
  expect((await download).suggestedFilename()).toBe(`evidence-pack-${dispute.id}.pdf`);
  await expectAccessible(page);
  await screenshot(page, "dashboard-dispute-1280");
  await page.setViewportSize({ width: 360, height: 740 });
  await expectAccessible(page);
  await screenshot(page, "dashboard-dispute-360");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Submit winning evidence with the pack attached: under review, then won on the tick.
  const form = page.getByRole("form", { name: "Respond to the dispute" });
  await form.getByLabel("Your response").fill("winning_evidence: the buyer's agent was verified and the goods were delivered.");
  await expect(form.getByLabel("Attach the agent evidence pack")).toBeChecked();
  await form.getByRole("button", { name: "Submit evidence" }).click();
  await expect(page.getByText("Evidence submitted. The dispute is under review.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status")).toHaveText("Under review");
  await expect(page.getByText("The agent evidence pack was attached.")).toBeVisible();
  await tickUntil(request, async () => (await disputeOf(request, key, first.orderId))?.status === "won");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status")).toHaveText("Won");
  await expect(page.getByTestId("dispute-outcome")).toContainText("back in your balance");
  const timeline = page.getByTestId("timeline");
  await expect(timeline.getByText("Payment disputed")).toBeVisible();
  await expect(timeline.getByText("Evidence submitted")).toBeVisible();
  await expect(timeline.getByText("Dispute won")).toBeVisible();

  // The payment's page links its dispute.
  await page.goto(`/dashboard/payments/${dispute.paymentIntentId}`);
  await expect(page.getByTestId("payment-dispute")).toContainText(dispute.id);
  await page.getByTestId("payment-dispute").click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/disputes/${dispute.id}$`));

  // The other one accepted: lost at once, and the badge is gone.
  await page.goto(`/dashboard/disputes/${other.id}`);
  await page.getByRole("button", { name: "Accept dispute" }).click();
  const dialog = page.getByRole("dialog", { name: "Accept this dispute" });
  await expect(dialog).toContainText("$54.00 and the $15.00 fee");
  await dialog.getByRole("button", { name: "Accept dispute" }).click();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status")).toHaveText("Lost");
  await expect(page.getByRole("button", { name: "Accept dispute" })).toHaveCount(0);
  await expect(nav.getByTestId("nav-badge")).toHaveCount(0);
  expect((await disputeOf(request, key, second.orderId))?.status).toBe("lost");
});
