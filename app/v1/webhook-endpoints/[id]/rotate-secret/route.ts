import { api } from "@/lib/http/api";
import { rotateEndpointSecret } from "@/lib/webhooks/endpoints";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) =>
  rotateEndpointSecret(tx, principal, params.id, body.previousSecretExpiresInSeconds),
);

export const dynamic = "force-dynamic";
