import { api } from "@/lib/http/api";
import { replayFailedDeliveries } from "@/lib/webhooks/endpoint-health";
import { ReplayFailedBody } from "@/lib/webhooks/schemas";

export const POST = api(
  { auth: "secret", permission: ["webhook_endpoints", "write"], body: ReplayFailedBody },
  ({ tx, principal, params, body }) => replayFailedDeliveries(tx, principal, params.id, body.since),
);

export const dynamic = "force-dynamic";
