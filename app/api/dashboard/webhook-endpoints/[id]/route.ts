// PATCH /api/dashboard/webhook-endpoints/:id (enable/disable, url, event types), DELETE (drops its queued deliveries).
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { deleteEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { UpdateEndpointBody } from "@/lib/webhooks/schemas";

export const dynamic = "force-dynamic";

export const PATCH = dashboardApi({ role: "developer", body: UpdateEndpointBody }, ({ tx, scope, params, body }) =>
  updateEndpoint(tx, scope, params.id, body),
);

export const DELETE = dashboardApi({ role: "developer", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  deleteEndpoint(tx, scope, params.id),
);
