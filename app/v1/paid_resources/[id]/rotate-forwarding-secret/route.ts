// A new forwarding secret (in this answer only); the previous one signs beside it for previousSecretExpiresInSeconds.
import { api } from "@/lib/http/api";
import { rotateForwardingSecret } from "@/lib/paid-resources/forwarding-secret";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) =>
  rotateForwardingSecret(tx, principal, params.id, body.previousSecretExpiresInSeconds),
);

export const dynamic = "force-dynamic";
