// The operations of /v1/paywall/verify (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { PaywallVerifyResult, VerifyPaymentBody } from "@/lib/paywall/schemas";

export const POST = operation({
  operationId: "verifyPaywallPayment",
  summary: "Check a payment against a gate's terms (changes nothing)",
  tag: "Paywall",
  auth: "secret",
  permission: ["paywall", "write"],
  body: VerifyPaymentBody,
  idempotent: false,
  transaction: false,
  db: "sql",
  bodyName: "PaywallVerifyParams",
  responses: { 200: PaywallVerifyResult },
  sdk: { resource: "paywall", method: "verify", doc: "Did this PaymentIntent pay exactly these terms? (merchant key)" },
});
