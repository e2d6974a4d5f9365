import { api } from "@/lib/http/api";
import { rotateEndpointSecret } from "@/lib/webhooks/endpoints";
import { RotateSecretBody } from "@/lib/webhooks/schemas";

export const POST = api(
  { auth: "secret", permission: ["webhook_endpoints", "write"], body: RotateSecretBody, secretInResponse: true },
  ({ tx, principal, params, body }) => rotateEndpointSecret(tx, principal, params.id, body.previousSecretExpiresInSeconds),
);

export const dynamic = "force-dynamic";
