// POST /api/dashboard/webhook-endpoints: a new endpoint in the dashboard's mode (its secret is in this response only).
import { dashboardApi } from "@/lib/dashboard/route";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { CreateEndpointBody } from "@/lib/webhooks/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi(
  { role: "developer", body: CreateEndpointBody, status: 201, secretInResponse: true },
  ({ tx, scope, body }) => createEndpoint(tx, scope, body),
);
