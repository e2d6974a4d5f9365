// POST /api/dashboard/shared-payment-tokens/:id/revoke: the payer revokes one of its own tokens (revokeToken,
// as POST /v1/shared_payment_tokens/:id/revoke).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { revokeToken } from "@/lib/shared-payment-tokens/revoke-token";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  revokeToken(tx, scope, params.id, "dashboard"),
);
