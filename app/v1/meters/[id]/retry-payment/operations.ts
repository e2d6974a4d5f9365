// The operations of /v1/meters/{id}/retry-payment (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { MeterObject, RetryPaymentBody } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "retryMeterPayment",
  summary: "Bill a past-due meter's outstanding amount again",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: RetryPaymentBody,
  bodyName: "MeterRetryPaymentParams",
  responses: { 200: MeterObject },
  sdk: {
    resource: "meters",
    method: "retryPayment",
    params: "params: T.MeterRetryPaymentParams = {}",
    doc: "Past due: bills the outstanding amount in one new aggregate PaymentIntent (the tick charges it) -> the meter.",
  },
});
