// The pay page never forwards the payer on its own (issue 14, item 8): any merchant can set successUrl to
// any host, so after a payment the page names the destination's host and waits for a click. No
// <meta refresh>, no script timer; the link is the only way on.
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, openCheckout } from "../helpers/payments";

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Redirecting Roasters");
});

async function paidPage(successUrl: string, query = "?status=success") {
  const checkout = await openCheckout(m.testKey, { successUrl });
  expect((await capture(m.testKey, checkout.id)).status).toBe(200);
  const res = await fetch(`${baseUrl()}/pay/${checkout.id}${query}`);
  expect(res.status).toBe(200);
  return res.text();
}

describe("after a successful payment", () => {
  it("the page shows the destination host and a link to it, and does not forward by itself", async () => {
    const html = await paidPage("https://evil.example:8443/thanks?order=1");
    expect(html).toContain("Payment successful");
    expect(html).not.toMatch(/http-equiv="refresh"/i);
    expect(html).not.toMatch(/Returning you to/);
    expect(html).toContain('data-testid="destination-host">evil.example:8443<');
    expect(html).toMatch(/<a [^>]*href="https:\/\/evil\.example:8443\/thanks\?order=1"[^>]*>[^<]*Continue to evil\.example:8443/);
  });

  it("an internationalised host is shown as the browser will reach it (punycode), so look-alikes show", async () => {
    const html = await paidPage("https://аpple.example/ok"); // a Cyrillic "а"
    expect(html).toContain('data-testid="destination-host">xn--pple-43d.example<');
  });

  it("the already-paid view links back with the host named too", async () => {
    const html = await paidPage("https://shop.example/done", "");
    expect(html).toContain("This checkout is already paid");
    expect(html).not.toMatch(/http-equiv="refresh"/i);
    expect(html).toContain('data-testid="destination-host">shop.example<');
  });
});
