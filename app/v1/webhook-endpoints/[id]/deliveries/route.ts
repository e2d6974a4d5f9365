import { api } from "@/lib/http/api";
import { listDeliveryAttempts } from "@/lib/webhooks/deliveries";
import { ListDeliveriesQuery } from "@/lib/webhooks/schemas";

export const GET = api(
  { auth: "secret", permission: ["webhook_endpoints", "read"], query: ListDeliveriesQuery },
  ({ tx, principal, params, query }) => listDeliveryAttempts(tx, principal, params.id, query),
);

export const dynamic = "force-dynamic";
