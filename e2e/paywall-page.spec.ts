// GET /pay/paywall: a person pays a paywall's terms with a test card and gets a PaymentIntent id that
// really paid those terms (checked through the merchant's API).
import { expect, test } from "@playwright/test";
import { createMerchant, expectAccessible, fillCard, getJson, screenshot, type Merchant } from "./support/pay";

let merchant: Merchant;

test.beforeAll(() => {
  merchant = createMerchant("Search Tools Ltd");
});

const termsUrl = (sku: string) => `/pay/paywall?merchant=${merchant.merchantId}&amount=250&currency=usd&sku=${encodeURIComponent(sku)}`;

test("pays the terms and shows the paymentIntentId to paste back; the API agrees", async ({ page, request }) => {
  await page.goto(termsUrl("tool:web_search"));
  await expect(page.getByRole("heading", { name: "Pay Search Tools Ltd" })).toBeVisible();
  await expect(page.getByTestId("amount-due")).toHaveText("$2.50");
  await expect(page.getByText("Access to tool:web_search")).toBeVisible();
  await expectAccessible(page);
  await fillCard(page, "4242424242424242");
  await page.getByRole("button", { name: "Pay $2.50" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  const paymentIntentId = (await page.getByTestId("copy-value").textContent())!.trim();
  expect(paymentIntentId).toMatch(/^pi_/);
  await screenshot(page, "paywall-paid");

  const pi = await getJson(request, merchant.testSecretKey, `/v1/payment_intents/${paymentIntentId}`);
  expect(pi).toMatchObject({ status: "captured", amount: 250, amountCaptured: 250, currency: "USD" });
  const checkout = await getJson(request, merchant.testSecretKey, `/v1/checkouts/${pi.checkoutId}`);
  expect(checkout.metadata.sku).toBe("tool:web_search");
  expect(pi.sku).toBe("tool:web_search");

  // What the paywall's backend asks the service on the retry: this payment paid exactly these terms.
  const verify = (sku: string) =>
    request.post("/v1/paywall/verify", {
      headers: { Authorization: `Bearer ${merchant.testSecretKey}` },
      data: { paymentIntentId, merchantId: merchant.merchantId, amount: 250, currency: "usd", sku },
    });
  expect(await (await verify("tool:web_search")).json()).toMatchObject({ valid: true, paymentIntent: { id: paymentIntentId } });
  expect(await (await verify("tool:other")).json()).toEqual({ valid: false, reasonCode: "reference_mismatch" });

  // The id shown is checked against the terms: a different sku does not show it as paid.
  await page.goto(`${termsUrl("tool:other")}&paymentIntentId=${paymentIntentId}`);
  await expect(page.getByRole("button", { name: "Pay $2.50" })).toBeVisible();
});

test("a decline says why and lets the person try another card", async ({ page }) => {
  await page.goto(termsUrl("tool:summarize"));
  await fillCard(page, "4000000000009995");
  await page.getByRole("button", { name: "Pay $2.50" }).click();
  await expect(page.getByTestId("form-message")).toContainText("Your card has insufficient funds.");
  await fillCard(page, "5555555555554444");
  await page.getByRole("button", { name: "Pay $2.50" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
});

test("incomplete terms and an unknown merchant are refused", async ({ page }) => {
  await page.goto("/pay/paywall?merchant=mer_x&amount=abc");
  await expect(page.getByRole("heading", { name: "These payment terms are incomplete" })).toBeVisible();
  const res = await page.goto("/pay/paywall?merchant=mer_0000000000000000000000&amount=100&currency=usd&sku=a");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Merchant not found" })).toBeVisible();
});
