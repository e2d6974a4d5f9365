import { api } from "@/lib/http/api";
import { endpointHealth } from "@/lib/webhooks/endpoint-health";

export const GET = api({ auth: "secret", permission: ["webhook_endpoints", "read"] }, ({ tx, principal, params }) =>
  endpointHealth(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
