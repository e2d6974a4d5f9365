// The operations of /v1/meters/{id}/top-up (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { MeterObject, TopUpBody } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "topUpMeter",
  summary: "Charge more prepaid budget now",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: TopUpBody,
  transaction: false,
  bodyName: "MeterTopUpParams",
  responses: { 200: MeterObject },
  sdk: {
    resource: "meters",
    method: "topUp",
    doc: "Prepaid: charges amountMinor now and raises the budget by it -> the meter. A declined charge is a ServiceError 402 PAYMENT_DECLINED (`details.meterId`, `details.paymentIntentId`), budget unchanged. Pass an `idempotencyKey` to make your own retries safe: the same key never charges twice.",
  },
});
