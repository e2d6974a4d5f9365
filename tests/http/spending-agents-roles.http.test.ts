// The dashboard's role matrix for spending agents and policies (docs/spending-policies.md "Dashboard roles"), over
// HTTP against the real server: every member sees the pages; creating, editing, deleting agents and setting a policy
// (the payer's default included) is for admins and owners: a developer or viewer gets 403 role_required and nothing
// changes.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { dashboardCall, dashboardPage, signUpOverHttp } from "../helpers/dashboard";
import { newMember, withCsrf, type Member, type Role } from "../helpers/team";

const members = {} as Record<Role, Member>;

beforeAll(async () => {
  const signedUp = await signUpOverHttp({ name: "Spending Roasters" });
  members.owner = await withCsrf(signedUp, signedUp.email, signedUp.password);
  for (const role of ["admin", "developer", "viewer"] as const) members[role] = await newMember(members.owner, role);
});

const act = (role: Role, method: string, path: string, body: unknown = {}) =>
  dashboardCall(members[role].session, method, path, { body, csrfToken: members[role].csrfToken });

describe("spending agents in the dashboard, by role", () => {
  it("admins and owners create, edit, set policies and delete; developers and viewers get 403 and change nothing", async () => {
    const created = await act("admin", "POST", "/api/dashboard/spending-agents", { name: "Research agent" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const writes: [method: string, path: string, body: unknown][] = [
      ["POST", "/api/dashboard/spending-agents", { name: "Another" }],
      ["PATCH", `/api/dashboard/spending-agents/${id}`, { name: "Renamed" }],
      ["POST", `/api/dashboard/spending-agents/${id}/policy`, { budgets: [{ window: "day", currency: "usd", amount: 1 }] }],
      ["POST", "/api/dashboard/spending-agents/default/policy", { budgets: [{ window: "day", currency: "usd", amount: 1 }] }],
      ["DELETE", `/api/dashboard/spending-agents/${id}`, {}],
    ];
    for (const role of ["developer", "viewer"] as const) {
      for (const [method, path, body] of writes) {
        const res = await act(role, method, path, body);
        expect(res.body?.error, `${role} ${method} ${path}`).toMatchObject({
          code: "FORBIDDEN",
          details: { reason: "role_required", role: "admin" },
        });
      }
    }
    const row = await getDb().spendingAgent.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ name: "Research agent", policy: null, deletedAt: null });
    const agents = await getDb().spendingAgent.count({ where: { merchantId: row.merchantId } });
    expect(agents).toBe(1);

    // Every member sees the list and the agent's page.
    for (const role of ["viewer", "developer", "admin", "owner"] as const) {
      expect((await dashboardPage(members[role].session, "/dashboard/spending-agents")).status, role).toBe(200);
      const page = await dashboardPage(members[role].session, `/dashboard/spending-agents/${id}`);
      expect(page.status, role).toBe(200);
      expect(page.html).toContain("Research agent");
    }

    expect((await act("owner", "PATCH", `/api/dashboard/spending-agents/${id}`, { name: "Renamed" })).body.name).toBe("Renamed");
    const policy = await act("admin", "POST", `/api/dashboard/spending-agents/${id}/policy`, {
      budgets: [{ window: "day", currency: "usd", amount: 500 }],
    });
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({ object: "spending_policy", spendingAgentId: id });
    expect((await act("admin", "POST", "/api/dashboard/spending-agents/default/policy", {})).body.spendingAgentId).toBeNull();
    expect((await act("admin", "DELETE", `/api/dashboard/spending-agents/${id}`)).body).toEqual({
      id,
      object: "spending_agent",
      deleted: true,
    });
    expect((await dashboardPage(members.viewer.session, `/dashboard/spending-agents/${id}`)).status).toBe(404);
  });
});
