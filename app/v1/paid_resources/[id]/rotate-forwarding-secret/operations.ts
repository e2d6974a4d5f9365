// The operations of /v1/paid_resources/{id}/rotate-forwarding-secret (lib/openapi/operation.ts): the route's api()
// options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { PaidResourceObject } from "@/lib/paid-resources/schemas";
import { RotateSecretBody } from "@/lib/webhooks/schemas";

export const POST = operation({
  operationId: "rotatePaidResourceForwardingSecret",
  summary: "Rotate the forwarding secret (the new one is in this answer only; the previous one signs beside it for a while)",
  tag: "Paid resources",
  auth: "secret",
  permission: ["paid_resources", "write"],
  body: RotateSecretBody,
  secretInResponse: true,
  bodyName: "RotateForwardingSecretParams",
  responses: { 200: PaidResourceObject },
  sdk: {
    resource: "paidResources",
    method: "rotateForwardingSecret",
    ids: "resourceId",
    params: "params: Partial<T.RotateForwardingSecretParams> = {}",
    doc: "A new forwarding secret (`forwardingSecret`, in this answer only); the previous one signs beside it for a while (default 24 h).",
  },
});
