// POST /api/dashboard/spending-agents/:id/policy (body of POST /v1/spending_agents/:id/policy; `default`: the
// payer's default policy). Admin: the policy decides what money may leave.
import { dashboardApi } from "@/lib/dashboard/route";
import { SetSpendingPolicyBody } from "@/lib/spending-policies/schemas";
import { setSpendingPolicy } from "@/lib/spending-policies/set-policy";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: SetSpendingPolicyBody }, ({ tx, scope, params, body }) =>
  setSpendingPolicy(tx, scope, params.id, body),
);
