// After sign-in, back to the page that was asked for: a signed-out visit to a dashboard page redirects to
// /login?callbackUrl=<that page>, and /login (signed in) sends the browser on to it, but only to a path
// under /dashboard on this origin: every open-redirect shape lands on /dashboard.
import { beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp, type DashboardSession } from "../helpers/dashboard";
import { baseUrl } from "../helpers/http";

let session: DashboardSession;

beforeAll(async () => {
  session = await signUpOverHttp({ name: "Callback Cafe" });
});

async function locationOf(path: string, cookie?: string): Promise<string> {
  const res = await fetch(`${baseUrl()}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
  expect([303, 307, 308]).toContain(res.status);
  return res.headers.get("location")!;
}

describe("signed out", () => {
  it("a dashboard page redirects to /login with that page (path and query) as callbackUrl", async () => {
    const location = new URL(await locationOf("/dashboard/orders?status=paid"), baseUrl());
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("callbackUrl")).toBe("/dashboard/orders?status=paid");
  });

  it("a detail page keeps its id; /dashboard itself carries no callback", async () => {
    const detail = new URL(await locationOf("/dashboard/payments/pi_doesnotexist0000000000000"), baseUrl());
    expect(detail.searchParams.get("callbackUrl")).toBe("/dashboard/payments/pi_doesnotexist0000000000000");
    expect(await locationOf("/dashboard")).toMatch(/^(http:\/\/[^/]+)?\/login$/);
  });

  it("a forged requested-path header does not change where the callback points", async () => {
    const res = await fetch(`${baseUrl()}/dashboard/orders`, { redirect: "manual", headers: { "x-aps-requested-path": "//evil.example" } });
    expect(new URL(res.headers.get("location")!, baseUrl()).searchParams.get("callbackUrl")).toBe("/dashboard/orders");
  });

  it("/login and /signup carry the callback to each other", async () => {
    const login = await (await fetch(`${baseUrl()}/login?callbackUrl=${encodeURIComponent("/dashboard/orders?status=paid")}`)).text();
    expect(login).toContain(`href="/signup?callbackUrl=%2Fdashboard%2Forders%3Fstatus%3Dpaid"`);
    const evil = await (await fetch(`${baseUrl()}/login?callbackUrl=${encodeURIComponent("//evil.example")}`)).text();
    expect(evil).toContain(`href="/signup"`);
    expect(evil).not.toMatch(/href="[^"]*evil/);
    // The form's target (a prop in the RSC payload) is the fallback, not the URL's value.
    expect(evil).toContain(String.raw`\"callbackUrl\":\"/dashboard\"`);
  });
});

describe("signed in, /login?callbackUrl=", () => {
  it.each([
    ["/dashboard/orders?status=paid", "/dashboard/orders?status=paid"],
    ["/dashboard/api-keys", "/dashboard/api-keys"],
  ])("%s -> %s", async (callback, expected) => {
    const location = new URL(await locationOf(`/login?callbackUrl=${encodeURIComponent(callback)}`, session.cookie), baseUrl());
    expect(location.origin).toBe(new URL(baseUrl()).origin);
    expect(`${location.pathname}${location.search}`).toBe(expected);
  });

  it.each([
    "https://evil.example/dashboard",
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/login",
    "/api/auth/signout",
    "/dashboard/../v1/events",
    "/dashboardx",
  ])("%j falls back to /dashboard", async (callback) => {
    const location = new URL(await locationOf(`/login?callbackUrl=${encodeURIComponent(callback)}`, session.cookie), baseUrl());
    expect(location.origin).toBe(new URL(baseUrl()).origin);
    expect(`${location.pathname}${location.search}`).toBe("/dashboard");
  });
});
