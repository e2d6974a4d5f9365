// ACP order webhooks (docs/acp.md "Order webhooks"): what a webhook endpoint with format "acp" receives, as
// ACP's webhook API (2026-01-16) defines it. The same outbox events as every endpoint (order.paid,
// order.refunded, order.canceled of an order an ACP checkout session paid), the same sender, retries and
// delivery log (lib/webhooks/sender.ts); only the body and the signature header differ:
//   order.paid      -> order_create  { status: "confirmed" }   (the order exists once paid: complete captures)
//   order.refunded  -> order_update  { status: "confirmed", refunds: [{ type: "original_payment", amount }] }
//   order.canceled  -> order_update  { status: "canceled" }
// signed `Merchant-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` (Stripe's scheme: stripe's
// webhooks.constructEvent verifies it with the endpoint's secret). The sender finds this format in its
// table (lib/webhooks/formats.ts), where lib/register-adapters.ts puts it at startup.
import type { WebhookFormat } from "../webhooks/formats";
import type { AcpWebhookEvent } from "./schemas";
import { permalinkUrl } from "./view-session";

/** The service's event types an ACP endpoint receives. */
const ACP_ORDER_EVENT_TYPES = ["order.paid", "order.refunded", "order.canceled"] as const;

const MERCHANT_SIGNATURE_HEADER = "Merchant-Signature";

/** The ACP body of an outbox event (its stored `data` as JSON text) for the order's checkout session. */
function acpOrderEventBody(type: string, eventData: string, checkoutSessionId: string | null): string {
  const order = (JSON.parse(eventData) as { object: { id: string; amountRefunded?: number } }).object;
  const refunded = order.amountRefunded ?? 0;
  const event: AcpWebhookEvent = {
    type: type === "order.paid" ? "order_create" : "order_update",
    data: {
      type: "order",
      checkout_session_id: checkoutSessionId ?? "",
      permalink_url: permalinkUrl(order.id),
      status: type === "order.canceled" ? "canceled" : "confirmed",
      refunds: refunded > 0 ? [{ type: "original_payment", amount: refunded }] : [],
    },
  };
  return JSON.stringify(event);
}

/** Format "acp": an ACP receiver dedupes on Request-Id, the event's id. */
export const ACP_WEBHOOK_FORMAT: WebhookFormat = {
  sessionEventTypes: ACP_ORDER_EVENT_TYPES,
  body: (event) => acpOrderEventBody(event.event_type, event.event_data, event.session_id),
  headers: (event, signature, attemptedAt) => ({
    [MERCHANT_SIGNATURE_HEADER]: signature,
    "Request-Id": event.event_id,
    Timestamp: attemptedAt.toISOString(),
  }),
};
