// Dashboard mutations run the API's own domain functions: refunds and checkouts made from the dashboard are
// the same objects /v1 sees; an Idempotency-Key replays instead of refunding twice; other merchants' and
// the other mode's objects are 404; refusals come back in the error contract.
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardCall, dashboardPage, enrollTwoFactor, signUpOverHttp, type DashboardSession } from "../helpers/dashboard";
import { call } from "../helpers/http";

let session: DashboardSession;
let csrfToken: string;
let apiKey: string;

async function paidOrder(key: string, amount = 5000) {
  const checkout = await call("POST", "/v1/checkouts", { key, body: { amount, currency: "usd" } });
  expect(checkout.status).toBe(201);
  const order = await call("POST", `/v1/checkouts/${checkout.body.id}/capture`, { key, body: { paymentMethod: "pm_card_visa" } });
  expect(order.status).toBe(200);
  return order.body as { id: string; paymentIntentId: string };
}

beforeAll(async () => {
  session = await signUpOverHttp({ name: "Refund Rooms" });
  csrfToken = (await dashboardPage(session)).csrfToken!;
  // The owner acts in live mode below too: two-factor sign-in first, as the live-mode rule asks.
  await enrollTwoFactor(session, csrfToken);
  apiKey = (await dashboardCall(session, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken })).body.secret;
});

describe("refunds from the dashboard", () => {
  it("partial then full: the same refund objects and order states as /v1", async () => {
    const order = await paidOrder(apiKey);
    const partial = await dashboardCall(session, "POST", "/api/dashboard/refunds", {
      body: { orderId: order.id, amount: 1200, reason: "requested_by_customer" },
      csrfToken,
    });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ object: "refund", status: "succeeded", amount: 1200, orderId: order.id, livemode: false });
    expect((await call("GET", `/v1/refunds/${partial.body.id}`, { key: apiKey })).body.amount).toBe(1200);
    expect((await call("GET", `/v1/orders/${order.id}`, { key: apiKey })).body).toMatchObject({
      status: "partially_refunded",
      amountRefunded: 1200,
    });

    const tooMuch = await dashboardCall(session, "POST", "/api/dashboard/refunds", {
      body: { orderId: order.id, amount: 5000 },
      csrfToken,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { fields: [{ path: "amount", message: "at most $38.00" }] },
    });

    const full = await dashboardCall(session, "POST", "/api/dashboard/refunds", {
      body: { paymentIntentId: order.paymentIntentId },
      csrfToken,
    });
    expect(full.body.amount).toBe(3800);
    expect((await call("GET", `/v1/orders/${order.id}`, { key: apiKey })).body).toMatchObject({ status: "refunded", amountRefunded: 5000 });
    const again = await dashboardCall(session, "POST", "/api/dashboard/refunds", { body: { orderId: order.id }, csrfToken });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
  });

  it("the same Idempotency-Key twice refunds once and replays the first answer", async () => {
    const order = await paidOrder(apiKey);
    const send = () =>
      fetch(`${session.base}/api/dashboard/refunds`, {
        method: "POST",
        headers: {
          Cookie: session.cookie,
          Origin: session.base,
          "X-CSRF-Token": csrfToken,
          "Content-Type": "application/json",
          "Idempotency-Key": `dash_${order.id}`,
        },
        body: JSON.stringify({ orderId: order.id, amount: 700 }),
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const [a, b] = [await first.json(), await second.json()];
    expect(b.id).toBe(a.id);
    const refunds = await call("GET", `/v1/refunds?paymentIntentId=${order.paymentIntentId}`, { key: apiKey });
    expect(refunds.body.data).toHaveLength(1);
    expect((await call("GET", `/v1/orders/${order.id}`, { key: apiKey })).body.amountRefunded).toBe(700);
  });

  it("another merchant's order, and the other mode's, are 404 and nothing is refunded", async () => {
    const other = await signUpOverHttp({ name: "Other" });
    const otherToken = (await dashboardPage(other)).csrfToken!;
    const otherKey = (await dashboardCall(other, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: otherToken })).body.secret;
    const theirs = await paidOrder(otherKey);
    const res = await dashboardCall(session, "POST", "/api/dashboard/refunds", { body: { orderId: theirs.id }, csrfToken });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    const mine = await paidOrder(apiKey);
    expect(
      (await dashboardCall(session, "POST", "/api/dashboard/refunds", { body: { orderId: mine.id }, csrfToken, mode: "live" })).status,
    ).toBe(404);
    expect((await call("GET", `/v1/orders/${theirs.id}`, { key: otherKey })).body.status).toBe("paid");
    expect((await call("GET", `/v1/orders/${mine.id}`, { key: apiKey })).body.status).toBe("paid");
  });

  it("the order page is the 404 page for another merchant's order", async () => {
    const other = await signUpOverHttp();
    const otherToken = (await dashboardPage(other)).csrfToken!;
    const otherKey = (await dashboardCall(other, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: otherToken })).body.secret;
    const theirs = await paidOrder(otherKey);
    expect((await dashboardPage(other, `/dashboard/orders/${theirs.id}`)).status).toBe(200);
    const page = await dashboardPage(session, `/dashboard/orders/${theirs.id}`);
    expect(page.status).toBe(404);
    expect(page.html).not.toContain(theirs.paymentIntentId);
  });
});

describe("malformed ids in detail pages", () => {
  it.each(["orders", "payments", "meters", "webhooks"])("/dashboard/%s/<malformed id> is the 404 page, never an error", async (section) => {
    for (const id of ["%00", "ord_%00x", "x".repeat(300), "%E2%80%AE", "a%20b"]) {
      const page = await dashboardPage(session, `/dashboard/${section}/${id}`);
      expect(page.status, `${section}/${id}`).toBe(404);
    }
  });
});

describe("checkouts from the dashboard", () => {
  it("opens a checkout /v1 sees, with its pay link; bad input is a 400 with field errors", async () => {
    const created = await dashboardCall(session, "POST", "/api/dashboard/checkouts", {
      body: { amount: 2500, currency: "eur", description: "Workshop seat" },
      csrfToken,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: "checkout", status: "open", amount: 2500, currency: "EUR", livemode: false });
    expect(created.body.url).toMatch(new RegExp(`/pay/${created.body.id}$`));
    expect((await call("GET", `/v1/checkouts/${created.body.id}`, { key: apiKey })).body.description).toBe("Workshop seat");
    const pay = await fetch(`${session.base}/pay/${created.body.id}`);
    expect(pay.status).toBe(200);
    expect(await pay.text()).toContain("Refund Rooms");

    const bad = await dashboardCall(session, "POST", "/api/dashboard/checkouts", { body: { amount: -5, currency: "dollars" }, csrfToken });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.map((field: { path: string }) => field.path).sort()).toEqual(["amount", "currency"]);
  });
});
