// GET a paid resource, POST updates it, DELETE archives it (active: false; no longer served). Also at /v1/x402/resources/:id.
import { api } from "@/lib/http/api";
import { getPaidResource } from "@/lib/paid-resources/get-paid-resource";
import { UpdatePaidResourceBody } from "@/lib/paid-resources/schemas";
import { archivePaidResource, updatePaidResource } from "@/lib/paid-resources/update-paid-resource";

export const GET = api({ auth: "secret", permission: ["paid_resources", "read"] }, ({ tx, principal, params }) =>
  getPaidResource(tx, principal, params.id),
);

export const POST = api(
  { auth: "secret", permission: ["paid_resources", "write"], body: UpdatePaidResourceBody },
  ({ tx, principal, params, body }) => updatePaidResource(tx, principal, params.id, body),
);

export const DELETE = api({ auth: "secret", permission: ["paid_resources", "write"] }, ({ tx, principal, params }) =>
  archivePaidResource(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
