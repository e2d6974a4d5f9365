// POST /api/dashboard/spending-agents: create a spending agent (body of POST /v1/spending_agents). Admin and owner
// only: an agent's policy decides what money may leave, as refunds and revoking payment tokens do.
import { dashboardApi } from "@/lib/dashboard/route";
import { createSpendingAgent } from "@/lib/spending-policies/agents";
import { CreateSpendingAgentBody } from "@/lib/spending-policies/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: CreateSpendingAgentBody, status: 201 }, ({ tx, scope, body }) =>
  createSpendingAgent(tx, scope, body),
);
