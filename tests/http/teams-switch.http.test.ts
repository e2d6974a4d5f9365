// A user in two merchants switches between them (docs/dashboard.md, "Team"): the session remembers the
// selection on the server; each merchant's data shows only while it is selected; a switch to a merchant
// the user is not a member of is refused (404); a tab still showing the other merchant cannot act.
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardCall, dashboardPage, signInOverHttp, signUpOverHttp } from "../helpers/dashboard";
import { invite, acceptInvitation, selectedMerchant, withCsrf, type Member } from "../helpers/team";

let a: Member;
let b: Member;
let aId: string;
let bId: string;

beforeAll(async () => {
  const sa = await signUpOverHttp({ name: "Alpha Apiary" });
  const sb = await signUpOverHttp({ name: "Beta Bakery" });
  a = await withCsrf(sa, sa.email, sa.password);
  b = await withCsrf(sb, sb.email, sb.password);
  aId = (await selectedMerchant(a.session)).merchantId!;
  bId = (await selectedMerchant(b.session)).merchantId!;
  // B's owner joins Alpha as a developer.
  const { token } = await invite(a, b.email, "developer");
  expect((await acceptInvitation({ token }, b.session)).status).toBe(200);
});

const switchTo = (m: Member, merchantId: string, headers: Record<string, string> = {}) =>
  dashboardCall(m.session, "POST", "/api/dashboard/session/merchant", { body: { merchantId }, csrfToken: m.csrfToken, headers });

describe("switching merchants", () => {
  it("shows each merchant's data only while it is selected, with the role held there", async () => {
    // Accepting selected Alpha; a product made now is Alpha's.
    expect((await selectedMerchant(b.session)).merchantId).toBe(aId);
    const alphaProduct = await dashboardCall(b.session, "POST", "/api/dashboard/products", {
      body: { name: "Alpha honey", unitAmount: 1200, currency: "usd" },
      csrfToken: b.csrfToken,
    });
    expect(alphaProduct.status, JSON.stringify(alphaProduct.body)).toBe(201);
    // Developer in Alpha: no refunds there.
    expect((await dashboardCall(b.session, "POST", "/api/dashboard/refunds", { body: {}, csrfToken: b.csrfToken })).status).toBe(403);
    const alphaPage = await dashboardPage(b.session, "/dashboard/products");
    expect(alphaPage.html).toContain("Alpha honey");

    expect((await switchTo(b, bId)).body).toEqual({ merchantId: bId });
    expect(await selectedMerchant(b.session)).toEqual({ merchantId: bId, name: "Beta Bakery" });
    const betaPage = await dashboardPage(b.session, "/dashboard/products");
    expect(betaPage.html).not.toContain("Alpha honey");
    // Owner in Beta: the refund route answers past the role check (400: no body).
    expect((await dashboardCall(b.session, "POST", "/api/dashboard/refunds", { body: {}, csrfToken: b.csrfToken })).status).toBe(400);

    // A new sign-in remembers nothing of another session's choice: its own selection starts at the oldest team.
    const fresh = await signInOverHttp(b.email, b.password);
    expect((await selectedMerchant(fresh)).merchantId).toBe(bId);
    expect((await switchTo(b, aId)).status).toBe(200);
    expect((await selectedMerchant(b.session)).merchantId).toBe(aId);
    expect((await selectedMerchant(fresh)).merchantId).toBe(bId);
  });

  it("refuses a merchant the user is not a member of, and a tab still showing the other merchant", async () => {
    expect((await switchTo(a, bId)).body.error).toMatchObject({ code: "NOT_FOUND" });
    expect((await selectedMerchant(a.session)).merchantId).toBe(aId);
    expect((await switchTo(a, "mer_000000000000000000000000")).status).toBe(404);

    await switchTo(b, bId);
    const stale = await dashboardCall(b.session, "POST", "/api/dashboard/products", {
      body: { name: "Meant for Alpha", unitAmount: 100, currency: "usd" },
      csrfToken: b.csrfToken,
      headers: { "X-Dashboard-Merchant": aId },
    });
    expect(stale.body.error).toMatchObject({ code: "CONFLICT", details: { reason: "merchant_switched" } });
  });
});
