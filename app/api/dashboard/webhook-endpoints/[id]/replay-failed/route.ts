// POST /api/dashboard/webhook-endpoints/:id/replay-failed { since? }: queues again, in one statement, every
// delivery of the endpoint that ended failed since then (default: the last 24 h).
import { dashboardApi } from "@/lib/dashboard/route";
import { replayFailedDeliveries } from "@/lib/webhooks/endpoint-health";
import { ReplayFailedBody } from "@/lib/webhooks/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: ReplayFailedBody }, ({ tx, scope, params, body }) =>
  replayFailedDeliveries(tx, scope, params.id, body.since),
);
