import { api } from "@/lib/http/api";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { UpdateEndpointBody } from "@/lib/webhooks/schemas";

export const GET = api({ auth: "secret", permission: ["webhook_endpoints", "read"] }, ({ tx, principal, params }) =>
  getEndpoint(tx, principal, params.id),
);

export const PATCH = api(
  { auth: "secret", permission: ["webhook_endpoints", "write"], body: UpdateEndpointBody },
  ({ tx, principal, params, body }) => updateEndpoint(tx, principal, params.id, body),
);

export const DELETE = api({ auth: "secret", permission: ["webhook_endpoints", "write"] }, ({ tx, principal, params }) =>
  deleteEndpoint(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
