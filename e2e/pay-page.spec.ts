// The hosted pay page in Chromium: a payer pays, is declined, is blocked, finds an expired or unknown
// checkout; the API confirms what the page says; validation on both sides; accessibility; screenshots.
import { expect, test } from "@playwright/test";
import { createMerchant, expectAccessible, fillCard, getJson, openCheckout, screenshot, type Merchant } from "./support/pay";

let merchant: Merchant;
let key: string;

test.beforeAll(() => {
  merchant = createMerchant("Acme Coffee Roasters");
  key = merchant.testSecretKey;
});

test("payer flow: pay with 4242, see success, order paid via the API, a second visit says already paid", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await expect(page.getByRole("heading", { name: "Pay Acme Coffee Roasters" })).toBeVisible();
  await expect(page.getByTestId("amount-due")).toHaveText("$54.00");
  await expect(page.getByText("Single-origin espresso beans, 1 kg")).toBeVisible();
  await expect(page.getByText("Qty 2 × $24.50")).toBeVisible();
  await expect(page.getByText(/Expires in \d+:\d\d/)).toBeVisible();
  await screenshot(page, "pay-page-desktop-1280");

  await fillCard(page, "4242 4242 4242 4242");
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  // The focus ring of the boxed card fields is drawn inside the box (the box clips anything outside):
  // a full 2 px inset ring, not a clipped 1 px line.
  await page.getByLabel("Expiry date (MM / YY)").focus();
  const ring = await page.getByLabel("Expiry date (MM / YY)").evaluate((el) => getComputedStyle(el).boxShadow);
  expect(ring).toContain("inset");
  expect(ring).toMatch(/0px 0px 0px 2px/);
  await page.getByRole("button", { name: "Pay $54.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  // Focus moves to the outcome, so a screen reader announces it and the keyboard starts there.
  await expect(page.getByTestId("outcome-heading")).toBeFocused();
  await expect(page.getByText("$54.00 paid to Acme Coffee Roasters")).toBeVisible();
  await screenshot(page, "pay-success");

  const order = await getJson(request, key, `/v1/orders/${checkout.orderId}`);
  expect(order.status).toBe("paid");
  const pi = await getJson(request, key, `/v1/payment_intents/${checkout.paymentIntentId}`);
  expect(pi.status).toBe("captured");
  expect(pi.amountCaptured).toBe(5400);

  await page.goto(checkout.url);
  await expect(page.getByRole("heading", { name: "This checkout is already paid" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Pay/ })).toHaveCount(0);
});

test("the pay page at 360 px: everything visible, nothing overflows, no serious axe violations", async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await expect(page.getByRole("button", { name: "Pay $54.00" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, "pay-page-mobile-360");
  await expectAccessible(page);
});

test("axe-core: no serious or critical violations on the desktop pay page, with errors shown, and on an outcome page", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await expectAccessible(page);
  await page.getByRole("button", { name: /Pay/ }).click(); // empty form: every field in error
  await expect(page.getByText("Enter your card number.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Card number")).toBeFocused();
  await expectAccessible(page);
  await fillCard(page, "4242424242424242");
  await page.getByRole("button", { name: /Pay/ }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  await expectAccessible(page);
});

test("keyboard only: tab through the form and pay with Enter", async ({ page, request }) => {
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await page.getByLabel("Card number").focus();
  await page.keyboard.type("5555555555554444");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Expiry date (MM / YY)")).toBeFocused();
  await page.keyboard.type("1230");
  await expect(page.getByLabel("Expiry date (MM / YY)")).toHaveValue("12 / 30");
  await page.keyboard.press("Tab");
  await page.keyboard.type("123");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Kim Keyboard");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
});

test("insufficient funds: the decline is explained in plain words and the PaymentIntent is failed", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await fillCard(page, "4000 0000 0000 9995");
  await page.getByRole("button", { name: /Pay/ }).click();
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
  await expect(page.getByText("Your card has insufficient funds.")).toBeVisible();
  await screenshot(page, "pay-declined");
  await expectAccessible(page);

  const pi = await getJson(request, key, `/v1/payment_intents/${checkout.paymentIntentId}`);
  expect(pi.status).toBe("failed");
  expect(pi.failureReason).toBe("insufficient_funds");
  expect((await getJson(request, key, `/v1/orders/${checkout.orderId}`)).status).toBe("canceled");

  // The way back: a new checkout with the same terms (the declined one stays closed), paid with another card.
  await page.getByRole("button", { name: "Try again with another card" }).click();
  await expect(page).not.toHaveURL(new RegExp(checkout.id));
  const retryId = new URL(page.url()).pathname.split("/").pop()!;
  expect(retryId).toMatch(/^cs_/);
  await expect(page.getByTestId("amount-due")).toHaveText("$54.00");
  await expect(page.getByText("Single-origin espresso beans, 1 kg")).toBeVisible();
  // Going back and clicking again leads to the same retry, never a second one.
  await page.goto(checkout.url);
  await page.getByRole("button", { name: "Try again with another card" }).click();
  await expect(page).toHaveURL(new RegExp(`/pay/${retryId}$`));
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $54.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  const retried = await getJson(request, key, `/v1/checkouts/${retryId}`);
  expect(retried).toMatchObject({ status: "complete", amount: 5400, description: "Order #1042", metadata: { retry_of: checkout.id } });
  expect((await getJson(request, key, `/v1/checkouts/${checkout.id}`)).status).toBe("failed");
});

test("expired card and generic declines say so", async ({ page, request }) => {
  for (const [card, words] of [
    ["4000000000000069", "Your card has expired."],
    ["4000000000000002", "Your card was declined."],
  ]) {
    const checkout = await openCheckout(request, key);
    await page.goto(checkout.url);
    await fillCard(page, card);
    await page.getByRole("button", { name: /Pay/ }).click();
    await expect(page.getByText(words)).toBeVisible();
  }
});

test("billing country KP: a blocked message and nothing charged", async ({ page, request }) => {
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await fillCard(page, "4242424242424242", { country: "KP" });
  await page.getByRole("button", { name: /Pay/ }).click();
  const alert = page.getByTestId("form-message");
  await expect(alert).toContainText("Payment blocked");
  await expect(alert).toContainText("North Korea");
  await expect(alert).toContainText("Nothing was charged");
  await expect(page.getByRole("button", { name: "Pay $54.00" })).toBeEnabled();

  const pi = await getJson(request, key, `/v1/payment_intents/${checkout.paymentIntentId}`);
  expect(pi.status).toBe("requires_payment");
  expect(pi.amountCaptured).toBe(0);
  expect((await getJson(request, key, `/v1/orders/${checkout.orderId}`)).status).toBe("pending");
});

test("an expired checkout shows the expired page", async ({ page, request }) => {
  const checkout = await openCheckout(request, key, { expiresInSeconds: 1 });
  await page.waitForTimeout(2_000);
  await page.goto(checkout.url);
  await expect(page.getByRole("heading", { name: "This checkout has expired" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Pay/ })).toHaveCount(0);
  expect((await getJson(request, key, `/v1/checkouts/${checkout.id}`)).status).toBe("expired");
});

test("a canceled checkout shows the canceled page with the way back", async ({ page, request }) => {
  const checkout = await openCheckout(request, key, { cancelUrl: "https://shop.example/cart" });
  const res = await request.post(`/v1/checkouts/${checkout.id}/cancel`, { headers: { Authorization: `Bearer ${key}` }, data: {} });
  expect(res.status()).toBe(200);
  await page.goto(checkout.url);
  await expect(page.getByRole("heading", { name: "This checkout was canceled" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Acme Coffee Roasters" })).toHaveAttribute("href", "https://shop.example/cart");
});

test("an unknown checkout is a 404 page", async ({ page }) => {
  const res = await page.goto("/pay/cs_doesNotExist0000000000000");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Checkout not found" })).toBeVisible();
});

test("after success the page names the successUrl's host and goes there only when the payer clicks", async ({ page, request, baseURL }) => {
  const checkout = await openCheckout(request, key, { successUrl: `${baseURL}/health?from=pay` });
  await page.goto(checkout.url);
  await fillCard(page, "4242424242424242");
  await page.getByRole("button", { name: /Pay/ }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  const host = new URL(baseURL!).host;
  await expect(page.getByTestId("destination-host")).toHaveText(host);
  // Any merchant sets any successUrl: the page never forwards by itself (it used to after 3 s).
  await page.waitForTimeout(5_000);
  expect(new URL(page.url()).pathname).toBe(`/pay/${checkout.id}`);
  await page.getByRole("link", { name: `Continue to ${host}` }).click();
  await page.waitForURL(/\/health\?from=pay$/);
});

test("a bad Luhn number is refused in the browser before anything is sent, and by the server when posted directly", async ({
  page,
  request,
  baseURL,
}) => {
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  const submissions: string[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/submit")) submissions.push(req.url());
  });
  await fillCard(page, "4242 4242 4242 4241");
  await page.getByRole("button", { name: /Pay/ }).click();
  await expect(page.getByText("Your card number is invalid.").first()).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
  await fillCard(page, "4242424242424242", { expiry: "01/20" });
  await page.getByRole("button", { name: /Pay/ }).click();
  await expect(page.getByText("Your card's expiry date is in the past.").first()).toBeVisible();
  expect(submissions).toEqual([]);

  const formToken = await page.locator('input[name="formToken"]').inputValue();
  const submit = `/pay/${checkout.id}/submit`;
  const card = { cardNumber: "4242424242424241", expiry: "12/34", cvc: "123", name: "Direct Poster", billingCountry: "US", formToken };
  const json = await request.post(submit, { headers: { Origin: baseURL!, Accept: "application/json" }, data: card });
  expect(json.status()).toBe(400);
  expect((await json.json()).fieldErrors.cardNumber).toBe("Your card number is invalid.");
  const expired = await request.post(submit, {
    headers: { Origin: baseURL!, Accept: "application/json" },
    data: { ...card, cardNumber: "4242424242424242", expiry: "01/20" },
  });
  expect(expired.status()).toBe(400);
  expect((await expired.json()).fieldErrors.expiry).toMatch(/past/);
  // A plain form post: post/redirect/get back to the page with the error code.
  const form = await request.post(submit, { headers: { Origin: baseURL! }, form: card, maxRedirects: 0 });
  expect(form.status()).toBe(303);
  expect(form.headers().location).toBe(`/pay/${checkout.id}?error=invalid_card&fields=cardNumber`);
  // CSRF: another origin, no origin, or a forged token are refused.
  const good = { ...card, cardNumber: "4242424242424242" };
  for (const [headers, data] of [
    [{ Origin: "https://evil.example", Accept: "application/json" }, good],
    [{ Accept: "application/json" }, good],
    [
      { Origin: baseURL!, Accept: "application/json" },
      { ...good, formToken: "1.AAAA" },
    ],
  ] as const) {
    expect((await request.post(submit, { headers, data })).status()).toBe(403);
  }
  expect((await getJson(request, key, `/v1/payment_intents/${checkout.paymentIntentId}`)).status).toBe("requires_payment");
});

test("a double submit charges once: two concurrent posts, one success, one already paid", async ({ page, request, baseURL }) => {
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  const formToken = await page.locator('input[name="formToken"]').inputValue();
  const post = () =>
    request.post(`/pay/${checkout.id}/submit`, {
      headers: { Origin: baseURL!, Accept: "application/json" },
      data: { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Twice", billingCountry: "US", formToken },
    });
  const replies = await Promise.all([post(), post()]);
  const redirects = await Promise.all(replies.map(async (reply) => (await reply.json()).redirect));
  expect(redirects.sort()).toEqual([`/pay/${checkout.id}`, `/pay/${checkout.id}?status=success`]);
  const events = await getJson(request, key, "/v1/events?type=payment_intent.captured&limit=100");
  expect(events.data.filter((event: any) => event.data.object.id === checkout.paymentIntentId)).toHaveLength(1);
  await page.goto(checkout.url);
  await expect(page.getByRole("heading", { name: "This checkout is already paid" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the page renders, and the card form still pays as a plain HTML form", async ({ page, request }) => {
    const checkout = await openCheckout(request, key, { amount: 1500, currency: "jpy", items: undefined });
    await page.goto(checkout.url);
    await expect(page.getByTestId("amount-due")).toHaveText("¥1,500");
    await fillCard(page, "4242424242424242");
    await page.getByRole("button", { name: "Pay ¥1,500" }).click();
    await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    expect((await getJson(request, key, `/v1/orders/${checkout.orderId}`)).status).toBe("paid");
  });

  test("a sanctioned billing country comes back as the blocked message", async ({ page, request }) => {
    const checkout = await openCheckout(request, key);
    await page.goto(checkout.url);
    await fillCard(page, "4242424242424242", { country: "KP" });
    await page.getByRole("button", { name: /Pay/ }).click();
    await expect(page.getByTestId("form-message")).toContainText("Payment blocked");
    await expect(page.getByLabel("Billing country")).toHaveValue("KP");
  });
});
