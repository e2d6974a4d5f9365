// POST /api/dashboard/approvals/:id/decline: the payer's admin or owner declines one of its approval requests
// (declineRequest, as POST /v1/approval_requests/:id/decline; docs/approvals.md, "Who may decide").
import { z } from "zod";
import { declineRequest } from "@/lib/shared-payment-tokens/await-approval";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  declineRequest(tx, scope, params.id, "dashboard"),
);
