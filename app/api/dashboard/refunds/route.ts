// POST /api/dashboard/refunds: the dashboard's refund button; the same createRefund (and body schema) as POST /v1/refunds.
import { dashboardApi } from "@/lib/dashboard/route";
import { createRefund } from "@/lib/refunds/create-refund";
import { CreateRefundBody } from "@/lib/refunds/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "admin", body: CreateRefundBody, status: 201 }, ({ tx, scope, body }) =>
  createRefund(tx, scope, body),
);
