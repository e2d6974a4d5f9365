import { api } from "@/lib/http/api";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { CreateEndpointBody, ListEndpointsQuery } from "@/lib/webhooks/schemas";

export const POST = api(
  { auth: "secret", permission: ["webhook_endpoints", "write"], body: CreateEndpointBody, status: 201, secretInResponse: true },
  ({ tx, principal, body }) => createEndpoint(tx, principal, body),
);

export const GET = api(
  { auth: "secret", permission: ["webhook_endpoints", "read"], query: ListEndpointsQuery },
  ({ tx, principal, query }) => listEndpoints(tx, principal, query),
);

export const dynamic = "force-dynamic";
