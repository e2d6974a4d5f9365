// safeCallbackPath: only same-origin relative paths under /dashboard survive; every open-redirect shape
// falls back to /dashboard.
import { describe, expect, it } from "vitest";
import { loginUrlFor, safeCallbackPath, withCallback } from "../../lib/dashboard/callback-path";

describe("safeCallbackPath", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/dashboard/orders?status=paid", "/dashboard/orders?status=paid"],
    ["/dashboard/orders/ord_abc?x=1&y=2", "/dashboard/orders/ord_abc?x=1&y=2"],
    ["/dashboard/events#top", "/dashboard/events"],
    // The OAuth consent screen (issue 16), exactly that path, with its authorization request.
    ["/oauth/consent?client_id=mcpc_1&state=x%2Fy", "/oauth/consent?client_id=mcpc_1&state=x%2Fy"],
  ])("keeps %s", (raw, expected) => {
    expect(safeCallbackPath(raw)).toBe(expected);
  });

  it.each([
    "https://evil.example/dashboard",
    "http://127.0.0.1:3000/dashboard/orders",
    "//evil.example",
    "//evil.example/dashboard",
    "/\\evil.example",
    "/\\/evil.example/dashboard",
    "\\\\evil.example",
    "/\t/evil.example",
    "/%09/evil.example",
    " /dashboard",
    "/dashboard\n/x",
    "javascript:alert(1)",
    "dashboard/orders",
    "/dashboardx",
    "/login",
    "/api/auth/signout",
    "/dashboard/../login",
    "/dashboard/%2e%2e/api/auth/signout",
    "/oauth/authorize?client_id=x",
    "/oauth/consent/x",
    "/oauth/consentx",
    "/oauth/token",
    "/oauth/consent/../../login",
    "//oauth/consent",
    "",
    "x".repeat(3000),
  ])("refuses %j", (raw) => {
    expect(safeCallbackPath(raw)).toBe("/dashboard");
  });

  it("refuses what is not one string", () => {
    expect(safeCallbackPath(undefined)).toBe("/dashboard");
    expect(safeCallbackPath(["/dashboard/orders"])).toBe("/dashboard");
    expect(safeCallbackPath(null)).toBe("/dashboard");
  });
});

describe("withCallback", () => {
  it("carries a dashboard page, encoded, and leaves /dashboard and refusals out", () => {
    expect(loginUrlFor("/dashboard/orders?status=paid")).toBe("/login?callbackUrl=%2Fdashboard%2Forders%3Fstatus%3Dpaid");
    expect(withCallback("/signup", "/dashboard/events")).toBe("/signup?callbackUrl=%2Fdashboard%2Fevents");
    expect(loginUrlFor("/dashboard")).toBe("/login");
    expect(loginUrlFor("//evil.example")).toBe("/login");
    expect(loginUrlFor(null)).toBe("/login");
  });
});
