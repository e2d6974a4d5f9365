// The payer's "Payment tokens" dashboard page: its shared payment tokens listed with their status, revocable
// through the same revokeToken as /v1; another merchant's token is 404 and untouched.
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardCall, dashboardMerchant, dashboardPage, type DashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let d: DashboardMerchant;
let other: TestMerchant;
beforeAll(async () => {
  d = await dashboardMerchant("Token payer");
  other = await createTestMerchant("Token other");
});

async function mint(key: string, maxAmount = 1500) {
  const res = await call("POST", "/v1/shared_payment_tokens", { key, body: { paymentMethod: "pm_card_visa", maxAmount, currency: "usd" } });
  expect(res.status).toBe(201);
  return res.body;
}

describe("/dashboard/shared-payment-tokens", () => {
  it("lists the payer's tokens with status; Revoke revokes it as /v1 sees; a redeemed one shows redeemed", async () => {
    const active = await mint(d.key, 1500);
    const used = await mint(d.key, 2500);
    expect(
      (await call("POST", `/v1/shared_payment_tokens/${used.id}/redeem`, { key: other.testKey, body: { amount: 2000, currency: "usd" } }))
        .status,
    ).toBe(201);
    const page = await dashboardPage(d.session, "/dashboard/shared-payment-tokens");
    expect(page.status).toBe(200);
    expect(page.html).toContain(active.id);
    expect(page.html).toContain(used.id);
    expect(page.html).toContain("$15.00");
    expect(page.html).toContain('data-status="redeemed"');
    expect(page.html).toContain(`Revoke ${active.id}`);
    expect(page.html).not.toContain(`Revoke ${used.id}`);

    const revoked = await dashboardCall(d.session, "POST", `/api/dashboard/shared-payment-tokens/${active.id}/revoke`, {
      body: {},
      csrfToken: d.csrfToken,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: active.id, status: "revoked" });
    expect((await call("GET", `/v1/shared_payment_tokens/${active.id}`, { key: d.key })).body.status).toBe("revoked");
    const filtered = await dashboardPage(d.session, "/dashboard/shared-payment-tokens?status=revoked");
    expect(filtered.html).toContain(active.id);
    expect(filtered.html).not.toContain(used.id);

    const late = await dashboardCall(d.session, "POST", `/api/dashboard/shared-payment-tokens/${used.id}/revoke`, {
      body: {},
      csrfToken: d.csrfToken,
    });
    expect(late.status).toBe(409);
  });

  it("another merchant's token is 404 on the revoke route and not on the page; no CSRF token is 403", async () => {
    const theirs = await mint(other.testKey);
    expect(
      (
        await dashboardCall(d.session, "POST", `/api/dashboard/shared-payment-tokens/${theirs.id}/revoke`, {
          body: {},
          csrfToken: d.csrfToken,
        })
      ).status,
    ).toBe(404);
    expect((await dashboardPage(d.session, "/dashboard/shared-payment-tokens")).html).not.toContain(theirs.id);
    const mine = await mint(d.key);
    expect((await dashboardCall(d.session, "POST", `/api/dashboard/shared-payment-tokens/${mine.id}/revoke`, { body: {} })).status).toBe(
      403,
    );
    expect((await call("GET", `/v1/shared_payment_tokens/${theirs.id}`, { key: other.testKey })).body.status).toBe("active");
    expect((await call("GET", `/v1/shared_payment_tokens/${mine.id}`, { key: d.key })).body.status).toBe("active");
  });
});
