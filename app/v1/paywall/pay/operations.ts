// The operations of /v1/paywall/pay (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { PayPaywallBody, PaywallPayResult } from "@/lib/paywall/schemas";

export const POST = operation({
  operationId: "payPaywall",
  summary: "Pay a gate's terms with the payer's key",
  tag: "Paywall",
  auth: "secret",
  permission: ["paywall", "write"],
  body: PayPaywallBody,
  status: 201,
  idempotent: false,
  transaction: false,
  bodyName: "PaywallPayParams",
  responses: { 201: PaywallPayResult },
  sdk: {
    resource: "paywall",
    method: "pay",
    doc: "Pays a gate's terms with the PAYER's own key; returns the paymentIntentId to present as proof.",
  },
});
