// POST /api/dashboard/events/:id/resend { webhookEndpointId? }: queue the event again, as POST /v1/events/:id/resend.
import { dashboardApi } from "@/lib/dashboard/route";
import { resendEvent } from "@/lib/webhooks/deliveries";
import { ResendEventBody } from "@/lib/webhooks/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: ResendEventBody }, ({ tx, scope, params, body }) =>
  resendEvent(tx, scope, params.id, body.webhookEndpointId),
);
