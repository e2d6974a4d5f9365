// POST /api/dashboard/webhook-endpoints/:id/test-event { type? }: a sample event of a real type, queued for
// this endpoint only and sent by the normal sender (lib/webhooks/test-event.ts).
import { dashboardApi } from "@/lib/dashboard/route";
import { SendTestEventBody } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/test-event";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: SendTestEventBody, status: 201 }, ({ tx, scope, params, body }) =>
  sendTestEvent(tx, scope, params.id, body.type),
);
