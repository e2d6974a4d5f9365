// Roles on the dashboard API (docs/dashboard.md, "Roles"), over HTTP against the real server: every
// dashboard route refuses a role below the one it declares with 403 FORBIDDEN naming the role needed
// (before reading the body or the path's id), and lets the roles at or above it through to the handler.
// A developer creates a webhook endpoint and cannot refund; a viewer can do neither; viewers read.
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardCall, signUpOverHttp } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { newMember, withCsrf, type Member, type Role } from "../helpers/team";

const ROLES: Role[] = ["viewer", "developer", "admin", "owner"];
const rank = (role: Role) => ROLES.indexOf(role);

// Each dashboard route with the least role it declares (the unit test dashboard-route-roles checks that
// every route declares one; this table checks the server enforces them). Ids are well-formed but unknown.
const ROUTES: [method: string, path: string, least: Role][] = [
  ["GET", "/api/dashboard/payments/export", "viewer"],
  ["POST", "/api/dashboard/session/merchant", "viewer"],
  ["POST", "/api/dashboard/api-keys", "developer"],
  ["POST", "/api/dashboard/api-keys/key_000000000000000000000000/revoke", "developer"],
  ["POST", "/api/dashboard/checkouts", "developer"],
  ["POST", "/api/dashboard/connected-apps/oag_000000000000000000000000/revoke", "developer"],
  ["POST", "/api/dashboard/events/evt_000000000000000000000000/resend", "developer"],
  ["POST", "/api/dashboard/paid-resources", "developer"],
  ["PATCH", "/api/dashboard/paid-resources/xr_000000000000000000000000", "developer"],
  ["DELETE", "/api/dashboard/paid-resources/xr_000000000000000000000000", "developer"],
  ["POST", "/api/dashboard/products", "developer"],
  ["PATCH", "/api/dashboard/products/prd_000000000000000000000000", "developer"],
  ["DELETE", "/api/dashboard/products/prd_000000000000000000000000", "developer"],
  ["POST", "/api/dashboard/webhook-endpoints", "developer"],
  ["PATCH", "/api/dashboard/webhook-endpoints/we_000000000000000000000000", "developer"],
  ["DELETE", "/api/dashboard/webhook-endpoints/we_000000000000000000000000", "developer"],
  ["POST", "/api/dashboard/webhook-endpoints/we_000000000000000000000000/replay-failed", "developer"],
  ["POST", "/api/dashboard/webhook-endpoints/we_000000000000000000000000/rotate-secret", "developer"],
  ["POST", "/api/dashboard/webhook-endpoints/we_000000000000000000000000/test-event", "developer"],
  ["POST", "/api/dashboard/refunds", "admin"],
  ["PATCH", "/api/dashboard/settings", "admin"],
  ["POST", "/api/dashboard/shared-payment-tokens/spt_000000000000000000000000/revoke", "admin"],
  ["POST", "/api/dashboard/team/invitations", "admin"],
  ["POST", "/api/dashboard/team/invitations/inv_000000000000000000000000/revoke", "admin"],
  ["PATCH", "/api/dashboard/team/members/usr_000000000000000000000000", "admin"],
  ["DELETE", "/api/dashboard/team/members/usr_000000000000000000000000", "admin"],
];

let owner: Member;
const members = {} as Record<Role, Member>;

beforeAll(async () => {
  const signedUp = await signUpOverHttp({ name: "Role Roasters" });
  owner = await withCsrf(signedUp, signedUp.email, signedUp.password);
  members.owner = owner;
  for (const role of ["admin", "developer", "viewer"] as const) members[role] = await newMember(owner, role);
});

describe("every dashboard route enforces its least role", () => {
  for (const role of ROLES) {
    it(`as ${role}`, async () => {
      const member = members[role];
      const answers = await Promise.all(
        ROUTES.map(async ([method, path, least]) => {
          const res = await dashboardCall(member.session, method, path, {
            body: method === "GET" ? undefined : {},
            csrfToken: member.csrfToken,
          });
          return { route: `${method} ${path}`, least, status: res.status, error: res.body?.error };
        }),
      );
      for (const answer of answers) {
        if (rank(role) < rank(answer.least)) {
          expect(answer, answer.route).toMatchObject({
            status: 403,
            error: { code: "FORBIDDEN", details: { reason: "role_required", role: answer.least } },
          });
        } else {
          expect(answer.status, `${answer.route}: ${JSON.stringify(answer.error)}`).not.toBe(403);
          expect(answer.status, answer.route).toBeLessThan(500);
        }
      }
    });
  }
});

describe("what each role may do", () => {
  async function paidOrder() {
    const key = (await dashboardCall(owner.session, "POST", "/api/dashboard/api-keys", { body: {}, csrfToken: owner.csrfToken })).body
      .secret as string;
    const checkout = await call("POST", "/v1/checkouts", { key, body: { amount: 5000, currency: "usd" } });
    const order = await call("POST", `/v1/checkouts/${checkout.body.id}/capture`, { key, body: { paymentMethod: "pm_card_visa" } });
    expect(order.status).toBe(200);
    return order.body as { id: string };
  }

  it("a developer creates a webhook endpoint and cannot refund; a viewer can do neither; an admin refunds", async () => {
    const order = await paidOrder();
    const endpoint = (m: Member) =>
      dashboardCall(m.session, "POST", "/api/dashboard/webhook-endpoints", {
        body: { url: "http://127.0.0.1:9/hooks", enabledEvents: ["order.paid"] },
        csrfToken: m.csrfToken,
      });
    const refund = (m: Member) =>
      dashboardCall(m.session, "POST", "/api/dashboard/refunds", { body: { orderId: order.id, amount: 100 }, csrfToken: m.csrfToken });

    expect((await endpoint(members.developer)).status).toBe(201);
    expect((await refund(members.developer)).body.error).toMatchObject({ code: "FORBIDDEN", details: { role: "admin" } });
    expect((await endpoint(members.viewer)).body.error).toMatchObject({ code: "FORBIDDEN", details: { role: "developer" } });
    expect((await refund(members.viewer)).status).toBe(403);
    expect((await refund(members.admin)).status).toBe(201);
  });

  it("viewers read: dashboard pages and the payments export; pages their role may not see are 404", async () => {
    const viewer = members.viewer;
    for (const path of ["/dashboard", "/dashboard/orders", "/dashboard/webhooks", "/dashboard/team", "/dashboard/settings"]) {
      const page = await fetch(`${viewer.session.base}${path}`, { headers: { Cookie: viewer.session.cookie }, redirect: "manual" });
      expect(page.status, path).toBe(200);
    }
    expect((await dashboardCall(viewer.session, "GET", "/api/dashboard/payments/export")).status).toBe(200);
    for (const path of ["/dashboard/api-keys", "/dashboard/connected-apps"]) {
      const page = await fetch(`${viewer.session.base}${path}`, { headers: { Cookie: viewer.session.cookie }, redirect: "manual" });
      expect(page.status, path).toBe(404);
      const asDeveloper = await fetch(`${viewer.session.base}${path}`, { headers: { Cookie: members.developer.session.cookie } });
      expect(asDeveloper.status, path).toBe(200);
    }
    // The navigation shows a viewer neither; a developer both.
    const viewerHome = await (await fetch(`${viewer.session.base}/dashboard`, { headers: { Cookie: viewer.session.cookie } })).text();
    expect(viewerHome).not.toContain('href="/dashboard/api-keys"');
    const developerHome = await (
      await fetch(`${viewer.session.base}/dashboard`, { headers: { Cookie: members.developer.session.cookie } })
    ).text();
    expect(developerHome).toContain('href="/dashboard/api-keys"');
  });
});
