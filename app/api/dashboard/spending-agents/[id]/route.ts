// PATCH /api/dashboard/spending-agents/:id (body of POST /v1/spending_agents/:id), DELETE detaches it (admin).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { deleteSpendingAgent, updateSpendingAgent } from "@/lib/spending-policies/agents";
import { UpdateSpendingAgentBody } from "@/lib/spending-policies/schemas";

export const dynamic = "force-dynamic";

export const PATCH = dashboardApi({ role: "admin", body: UpdateSpendingAgentBody }, ({ tx, scope, params, body }) =>
  updateSpendingAgent(tx, scope, params.id, body),
);

export const DELETE = dashboardApi({ role: "admin", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  deleteSpendingAgent(tx, scope, params.id),
);
