// Issue 16 item 2: the dashboard's Connected apps lists the clients holding access in the page's mode
// (name, redirect host, scopes, last use) and revokes one at once: its next /mcp call is 401.
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardCall, dashboardPage, signUpOverHttp, type DashboardSession } from "../helpers/dashboard";
import { baseUrl } from "../helpers/http";
import { connectWithOAuth, HeadlessProvider } from "../helpers/oauth";

// The shared server (tests/global-setup.ts): its limits are high enough for many calls of one key.
const server = { url: baseUrl() };
let session: DashboardSession;
let csrfToken: string;

beforeAll(async () => {
  session = await signUpOverHttp({ name: "Connected apps" }, server.url);
  csrfToken = (await dashboardPage(session)).csrfToken!;
});

describe("Connected apps", () => {
  it("lists the app with scopes and last use, and revoking it makes its next call 401", async () => {
    const provider = new HeadlessProvider(session, { mode: "test", write: false }, "Claude-ish IDE");
    const client = await connectWithOAuth(server.url, provider);
    await client.callTool({ name: "get_balance", arguments: {} });

    const page = await dashboardPage(session, "/dashboard/connected-apps");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Claude-ish IDE");
    expect(page.html).toContain("127.0.0.1:9");
    expect(page.html).toContain("Read");
    expect(page.html).not.toContain("Create and refund");
    expect(page.html).not.toContain(">Never<");
    // The live-mode page does not show a test-mode grant.
    const live = await fetch(`${server.url}/dashboard/connected-apps`, {
      headers: { Cookie: `${session.cookie}; aps_dashboard_mode=live` },
    });
    expect(await live.text()).not.toContain("Claude-ish IDE");

    const { grantIdOf } = await import("../helpers/oauth-db");
    const grant = await grantIdOf(provider.store.client!.client_id);
    // Another merchant cannot revoke it.
    const other = await signUpOverHttp({ name: "Someone else" }, server.url);
    const otherCsrf = (await dashboardPage(other)).csrfToken!;
    expect(
      (await dashboardCall(other, "POST", `/api/dashboard/connected-apps/${grant}/revoke`, { body: {}, csrfToken: otherCsrf })).status,
    ).toBe(404);
    // A forged request (no CSRF token) is refused.
    expect((await dashboardCall(session, "POST", `/api/dashboard/connected-apps/${grant}/revoke`, { body: {} })).status).toBe(403);

    const revoked = await dashboardCall(session, "POST", `/api/dashboard/connected-apps/${grant}/revoke`, { body: {}, csrfToken });
    expect(revoked.status).toBe(200);
    const res = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${provider.store.tokens!.access_token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    const refreshed = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: provider.store.tokens!.refresh_token!,
        client_id: provider.store.client!.client_id,
      }),
    });
    expect((await refreshed.json()).error).toBe("invalid_grant");
    expect((await dashboardPage(session, "/dashboard/connected-apps")).html).not.toContain("Claude-ish IDE");
  });
});
