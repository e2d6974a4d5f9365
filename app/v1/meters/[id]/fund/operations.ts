// The operations of /v1/meters/{id}/fund (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { FundMeterBody, MeterFundingObject } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "fundMeter",
  summary: "Fund another merchant's prepaid meter with the payer's key (201; 200 when a retry found it)",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: FundMeterBody,
  status: 201,
  idempotent: false,
  transaction: false,
  bodyName: "MeterFundParams",
  responses: { 201: MeterFundingObject, 200: MeterFundingObject },
  sdk: {
    resource: "meters",
    method: "fund",
    doc: "With the PAYER's own key (the agent gated by insufficient_budget; the gate's `fundUrl`): charges amountMinor now from your test card or one of your own customers' wallets and raises another merchant's prepaid budget by it -> `{ object: \"meter_funding\", paymentIntentId, status, ... }`. A decline is a ServiceError 402 PAYMENT_DECLINED; the same `idempotencyKey` never charges twice.",
  },
});
