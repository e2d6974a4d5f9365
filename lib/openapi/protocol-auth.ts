// The credentials of the protocol paths that take neither an API key nor nothing: as the document states them.
import type { OperationAuth } from "./operation";

export const X402_PAYMENT: OperationAuth = {
  kind: "payment",
  description: "The payment is the credential: an x402 payment payload in PAYMENT-SIGNATURE (or X-PAYMENT); limited per client IP.",
};

export const MPP_PAYMENT: OperationAuth = {
  kind: "payment",
  description: "The payment is the credential: a Payment credential in Authorization (RFC 9110's scheme, mppx); limited per client IP.",
};

export const MCP_CREDENTIAL: OperationAuth = {
  kind: "oauth",
  description: "An OAuth access token of this service (or an API key) as Bearer; limited per client IP, then per caller.",
};
