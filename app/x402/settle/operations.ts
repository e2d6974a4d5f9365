// The operations of /x402/settle (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (facilitatorRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "settleX402Payment",
  summary: "x402 facilitator settle: the authorization into a captured PaymentIntent (source x402)",
  tag: "x402",
  auth: "secret",
  permission: ["x402", "write"],
  responses: { 200: { description: "x402's SettleResponse" } },
  errors: {
    description:
      "x402's facilitator answer: { isValid: false, invalidReason } or a failed settle response; the key's own refusals (401, 403, 429) in the error contract",
  },
});
