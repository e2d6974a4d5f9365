// POST /api/dashboard/approvals/:id/approve: the payer's admin or owner approves one of its approval requests
// (approveRequest, as POST /v1/approval_requests/:id/approve; docs/approvals.md, "Who may decide").
import { z } from "zod";
import { approveRequest } from "@/lib/shared-payment-tokens/await-approval";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  approveRequest(tx, scope, params.id, "dashboard"),
);
