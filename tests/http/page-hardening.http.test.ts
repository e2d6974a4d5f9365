// Pages outside api(): anti-framing headers on the pay page and the dashboard, /ready without database
// error text, and NUL bytes in page and sign-in/sign-up input answered as bad input (never a 500 or raw
// database text). Issue 14, items 9 and 13.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { authCallback, dashboardCall, dashboardMerchant, dashboardPage, uniqueEmail, type DashboardMerchant } from "../helpers/dashboard";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { openCheckout } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let merchant: TestMerchant;
let dash: DashboardMerchant;

beforeAll(async () => {
  merchant = await createTestMerchant("Hardened pages");
  dash = await dashboardMerchant("Hardened dashboard");
});

function expectNoFraming(res: Response, path: string) {
  expect(res.headers.get("x-frame-options"), path).toBe("DENY");
  expect(res.headers.get("content-security-policy") ?? "", path).toContain("frame-ancestors 'none'");
}

describe("anti-framing", () => {
  it("the pay page, the paywall page, sign-in, sign-up and the dashboard refuse to be framed", async () => {
    const checkout = await openCheckout(merchant.testKey);
    const paths = [
      `/pay/${checkout.id}`,
      `/pay/cs_doesnotexist000000000000000`,
      `/pay/paywall?merchant=${merchant.merchantId}&amount=100&currency=usd&sku=tool`,
      "/login",
      "/signup",
      "/dashboard",
    ];
    for (const path of paths) expectNoFraming(await fetch(`${baseUrl()}${path}`, { redirect: "manual" }), path);
    for (const path of ["/dashboard", "/dashboard/api-keys"]) {
      expectNoFraming(await fetch(`${baseUrl()}${path}`, { headers: { Cookie: dash.session.cookie }, redirect: "manual" }), path);
    }
  });
});

describe("/ready with a failing database", () => {
  let server: ServerProcess;
  let log = "";
  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = "/aps_no_such_database_for_ready";
    server = await startTestServer({ DATABASE_URL: url.toString() });
    server.child.stdout?.on("data", (chunk) => (log += chunk));
    server.child.stderr?.on("data", (chunk) => (log += chunk));
  });
  afterAll(() => server?.stop());

  it("answers 503 not_ready with a fixed word, keeping the database's message for the server log", async () => {
    const res = await call("GET", "/ready", { base: server.url });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "not_ready", checks: { database: "failing", migrations: "unknown" } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log).toContain("aps_no_such_database_for_ready");
  });

  it(
    "sign-in and sign-up failing on the database answer the fixed SERVER_ERROR code, never the database's message",
    { timeout: 120_000 },
    async () => {
      const signIn = await authCallback("signin", { email: uniqueEmail(), password: "whatever-password" }, server.url);
      const signUp = await authCallback(
        "signup",
        { name: "No database", email: uniqueEmail(), password: "long-enough-password" },
        server.url,
      );
      expect([signIn.error, signUp.error]).toEqual(["SERVER_ERROR", "SERVER_ERROR"]);
      expect([signIn.cookie, signUp.cookie]).toEqual([null, null]);
    },
  );
});

describe("NUL bytes outside api()", () => {
  it("the paywall page with a NUL in paymentIntentId shows the form (unpaid), not a 500", async () => {
    const res = await fetch(
      `${baseUrl()}/pay/paywall?merchant=${merchant.merchantId}&amount=100&currency=usd&sku=tool&paymentIntentId=pi_%00x`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Pay");
  });

  it("NUL in the other paywall terms is the incomplete-terms page, not a 500", async () => {
    for (const query of [
      `merchant=${merchant.merchantId}%00&amount=100&currency=usd&sku=tool`,
      `merchant=${merchant.merchantId}&amount=100&currency=usd&sku=to%00ol`,
    ]) {
      const res = await fetch(`${baseUrl()}/pay/paywall?${query}`);
      expect(res.status, query).toBe(200);
      expect(await res.text()).toContain("incomplete");
    }
  });

  it("pay page and its form endpoint with a NUL in the checkout id are not found, not a 500", async () => {
    expect((await fetch(`${baseUrl()}/pay/cs_%00abc`)).status).toBe(404);
    const submit = await fetch(`${baseUrl()}/pay/cs_%00abc/submit`, {
      method: "POST",
      headers: { Origin: baseUrl(), Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: "cardNumber=4242424242424242",
    });
    expect(submit.status).toBeLessThan(500);
  });

  it.each(["orders", "payments", "meters", "events", "webhooks"])(
    "dashboard detail page /dashboard/%s/<id with NUL> is 404, not a 500",
    async (section) => {
      const res = await fetch(`${baseUrl()}/dashboard/${section}/x%00y`, { headers: { Cookie: dash.session.cookie }, redirect: "manual" });
      expect(res.status).toBe(404);
    },
  );

  it("dashboard list pages drop a cursor or filter with a NUL", async () => {
    for (const path of [
      "/dashboard/orders?startingAfter=ord_%00",
      "/dashboard/events?type=order.created%00&startingAfter=%00",
      "/dashboard/webhooks?startingAfter=%00",
    ]) {
      expect((await dashboardPage(dash.session, path)).status, path).toBe(200);
    }
  });

  it("dashboard API: NUL in a path id is 404 and in the body 400, in the error contract", async () => {
    const revoke = await dashboardCall(dash.session, "POST", "/api/dashboard/api-keys/key_%00/revoke", {
      body: {},
      csrfToken: dash.csrfToken,
    });
    expect(revoke.status).toBe(404);
    expect(revoke.body.error.code).toBe("NOT_FOUND");
    const create = await dashboardCall(dash.session, "POST", "/api/dashboard/api-keys", {
      body: { name: "a\u0000b" },
      csrfToken: dash.csrfToken,
    });
    expect(create.status).toBe(400);
    expect(create.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("sign-up with a NUL in the business name, email or password is INVALID_SIGNUP, never the database's message", async () => {
    for (const fields of [
      { name: "Bad\u0000Name", email: uniqueEmail(), password: "long-enough-password" },
      { name: "Fine", email: `a\u0000${uniqueEmail()}`, password: "long-enough-password" },
      { name: "Fine", email: uniqueEmail(), password: "long-enough-\u0000password" },
    ]) {
      const result = await authCallback("signup", fields);
      expect(result.error, JSON.stringify(fields)).toBe("INVALID_SIGNUP");
      expect(result.cookie).toBeNull();
    }
  });

  it("sign-in with a NUL in the email or password is refused like a wrong password", async () => {
    for (const fields of [
      { email: `x\u0000${uniqueEmail()}`, password: "whatever-password" },
      { email: uniqueEmail(), password: "what\u0000ever" },
    ]) {
      const result = await authCallback("signin", fields);
      expect(result.error, JSON.stringify(fields)).toBe("CredentialsSignin");
      expect(result.cookie).toBeNull();
    }
  });
});
