// "Send test event" (Stripe's "send test webhook"): an event of a real type whose object is a sample (ids
// of all zeros, so a receiver can tell it from a real payment), written to the outbox and queued for ONE
// endpoint in one transaction; the normal sender then signs and POSTs it and logs the attempt like any
// other. It is not fanned out: the merchant's other endpoints never see a sample payment. It is an event of
// the account all the same, so it is listed by GET /v1/events and can be resent. Test mode only: a live
// account's events must all be real, since fulfilment systems act on them (and on GET /v1/events).
import type { Db } from "../db";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors";
import { DEFAULT_EVENT_TYPES, type DefaultEventType } from "../events/types";
import type { Order, PaymentIntent } from "../generated/prisma/client";
import { createId, ID_PREFIXES } from "../ids";
import { serializeOrder } from "../orders/serialize";
import { serializePaymentIntent } from "../payments/serialize";
import type { Scope } from "../scope";
import { queueEventFor } from "./fan-out";

const SAMPLE_ID = "0".repeat(24);
const sampleId = (kind: "paymentIntent" | "order" | "checkout") => `${ID_PREFIXES[kind]}_${SAMPLE_ID}`;

const PI_STATUS: Record<string, string> = {
  captured: "captured",
  settled: "settled",
  refunded: "refunded",
  failed: "failed",
  expired: "expired",
  canceled: "canceled",
};
const ORDER_STATUS: Record<string, string> = { paid: "paid", refunded: "refunded", canceled: "canceled" };

/** The object of a sample event of `type`, shaped by the same serializers as real events. */
export function sampleObject(type: DefaultEventType, scope: Scope, now = new Date()): Record<string, unknown> {
  const [kind, action] = type.split(".") as [string, string];
  const amount = 5400;
  const captured = ["captured", "settled", "refunded", "paid"].includes(action);
  const refunded = action === "refunded";
  const common = {
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    currency: "USD",
    checkoutId: sampleId("checkout"),
    customerId: null,
    source: "api",
    createdAt: now,
    updatedAt: now,
  };
  if (kind === "order") {
    const order: Order = {
      ...common,
      id: sampleId("order"),
      status: ORDER_STATUS[action],
      paymentIntentId: sampleId("paymentIntent"),
      amount,
      amountRefunded: refunded ? amount : 0,
      items: [{ name: "Sample item", quantity: 1, unitAmount: amount }],
    };
    return serializeOrder(order);
  }
  const pi: PaymentIntent = {
    ...common,
    id: sampleId("paymentIntent"),
    status: PI_STATUS[action],
    amount,
    amountCaptured: captured ? amount : 0,
    amountRefunded: refunded ? amount : 0,
    orderId: sampleId("order"),
    paymentMethod: "pm_card_visa",
    billingName: "Jenny Rosen",
    billingCountry: "US",
    rail: null,
    railChargeId: null,
    settlement: null,
    failureReason: action === "failed" ? "card_declined" : null,
    sku: null,
    payerMerchantId: null,
    spendingAgentId: null,
    railPaymentMethod: null,
    payerRequestKey: null,
    capturedAt: captured ? now : null,
    settledAt: action === "settled" ? now : null,
    meterId: null,
    meterChargeKey: null,
    meterFunding: false,
    paidResourceId: null,
    payer: null,
    agent: null,
  };
  return serializePaymentIntent(pi);
}

/**
 * `type` defaults to the first type the endpoint subscribes to (order.paid when it takes every type, or only opt-in
 * types such as dispute.*, which have no sample).
 */
export async function sendTestEvent(tx: Db, scope: Scope, endpointId: string, requestedType?: DefaultEventType) {
  const endpoint = await tx.webhookEndpoint.findFirst({
    where: { id: endpointId, merchantId: scope.merchantId, livemode: scope.livemode },
    select: { id: true, status: true, enabledEvents: true },
  });
  if (!endpoint) throw new NotFoundError("webhook endpoint", endpointId);
  if (scope.livemode) throw new ForbiddenError("Test events are sent in test mode only: a live endpoint receives live events.");
  if (endpoint.status !== "enabled")
    throw new ConflictError("The endpoint is disabled: enable it to send it a test event.", { webhookEndpointId: endpointId });
  const subscribed = endpoint.enabledEvents.find((t): t is DefaultEventType => (DEFAULT_EVENT_TYPES as readonly string[]).includes(t));
  const type = requestedType ?? subscribed ?? DEFAULT_EVENT_TYPES[0];
  const now = new Date();
  const event = await tx.event.create({
    data: {
      id: createId("event"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      type,
      data: { object: sampleObject(type, scope, now) } as object,
      createdAt: now,
      fannedOutAt: now,
    },
  });
  await queueEventFor(tx, event, endpoint.id);
  return { object: "webhook_test_event" as const, eventId: event.id, type, webhookEndpointId: endpoint.id };
}
