// POST /api/dashboard/webhook-endpoints/:id/rotate-secret: a new signing secret (in this response only);
// the previous one keeps signing beside it for 24 h unless told otherwise.
import { dashboardApi } from "@/lib/dashboard/route";
import { rotateEndpointSecret } from "@/lib/webhooks/endpoints";
import { RotateSecretBody } from "@/lib/webhooks/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: RotateSecretBody, secretInResponse: true }, ({ tx, scope, params, body }) =>
  rotateEndpointSecret(tx, scope, params.id, body.previousSecretExpiresInSeconds),
);
