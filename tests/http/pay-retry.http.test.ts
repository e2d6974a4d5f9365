// "Try again with another card" (POST /pay/:checkoutId/retry): a declined checkout gets exactly one retry,
// however many clicks race; an open or paid checkout gets none; the pay form's guards apply.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, openCheckout } from "../helpers/payments";

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Retry Rentals");
});

async function formToken(checkoutId: string): Promise<string> {
  const html = await (await fetch(`${baseUrl()}/pay/${checkoutId}`)).text();
  const token = /name="formToken" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no form token on the page");
  return token;
}

function retry(checkoutId: string, token: string, origin = baseUrl()) {
  return fetch(`${baseUrl()}/pay/${checkoutId}/retry`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({ formToken: token }),
  });
}

describe("retry of a declined checkout", () => {
  it("20 racing clicks make one retry with the same terms; the declined checkout stays failed", async () => {
    const checkout = await openCheckout(m.testKey, {
      amount: 2300,
      currency: "eur",
      description: "Bike, 1 day",
      metadata: { booking: "B-17" },
      successUrl: "https://example.com/ok",
    });
    expect((await capture(m.testKey, checkout.id, "pm_card_chargeDeclined")).status).toBe(402);
    const token = await formToken(checkout.id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => retry(checkout.id, token)));
    const locations = new Set(answers.map((res) => `${res.status} ${res.headers.get("location")}`));
    expect(locations.size).toBe(1);
    const [only] = [...locations];
    expect(only).toMatch(/^303 \/pay\/cs_/);
    const retryId = only.split("/pay/")[1];
    expect(await getDb().checkout.count({ where: { retryOf: checkout.id } })).toBe(1);
    const retried = await call("GET", `/v1/checkouts/${retryId}`, { key: m.testKey });
    expect(retried.body).toMatchObject({
      status: "open",
      amount: 2300,
      currency: "EUR",
      description: "Bike, 1 day",
      successUrl: "https://example.com/ok",
      metadata: { booking: "B-17", retry_of: checkout.id },
    });
    expect((await call("GET", `/v1/payment_intents/${retried.body.paymentIntentId}`, { key: m.testKey })).body.source).toBe("api");
    expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("failed");
  });

  it("an open checkout has nothing to retry: back to its page, nothing made", async () => {
    const checkout = await openCheckout(m.testKey);
    const res = await retry(checkout.id, await formToken(checkout.id));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/pay/${checkout.id}`);
    expect(await getDb().checkout.count({ where: { retryOf: checkout.id } })).toBe(0);
  });

  it("refuses another origin, a token of another checkout, and an unknown id, never a 500", async () => {
    const checkout = await openCheckout(m.testKey);
    await capture(m.testKey, checkout.id, "pm_card_chargeDeclined");
    const other = await openCheckout(m.testKey);
    expect((await retry(checkout.id, await formToken(checkout.id), "https://evil.example")).headers.get("location")).toBe(
      `/pay/${checkout.id}?error=forbidden`,
    );
    expect((await retry(checkout.id, await formToken(other.id))).headers.get("location")).toBe(`/pay/${checkout.id}?error=form_expired`);
    expect((await retry("cs_doesnotexist", "1.AAAA")).status).toBe(303);
    expect(await getDb().checkout.count({ where: { retryOf: checkout.id } })).toBe(0);
  });
});
