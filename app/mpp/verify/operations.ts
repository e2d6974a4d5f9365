// The operations of /mpp/verify (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { PaymentDeclinedOrPendingBody } from "@/lib/approvals/pending-error-schema";
import { VerifyCredentialBody } from "@/lib/mpp/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "verifyMppCredential",
  summary: "Settle a `service` credential for a challenge the merchant's own mppx server issued (a captured PaymentIntent, source mpp)",
  tag: "MPP",
  auth: "secret",
  permission: ["mpp", "write"],
  body: VerifyCredentialBody,
  bodyLimitBytes: 32 * 1024,
  // Its own transactions (verifyCredential): a live `evm` settlement waits on the chain between them.
  transaction: false,
  responses: {
    200: { description: "What the SDK's serviceServerMethod turns into the Payment-Receipt" },
    // Above the token's spending agent's approval threshold the charge waits; the same credential is the retry (docs/approvals.md).
    402: PaymentDeclinedOrPendingBody,
  },
});
