import { api } from "@/lib/http/api";
import { resendEvent } from "@/lib/webhooks/deliveries";
import { ResendEventBody } from "@/lib/webhooks/schemas";

export const POST = api({ auth: "secret", permission: ["events", "write"], body: ResendEventBody }, ({ tx, principal, params, body }) =>
  resendEvent(tx, principal, params.id, body.webhookEndpointId),
);

export const dynamic = "force-dynamic";
