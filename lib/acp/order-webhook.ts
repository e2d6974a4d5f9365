// ACP order webhooks (docs/acp.md "Order webhooks"): what a webhook endpoint with format "acp" receives, as
// ACP's webhook API (2026-01-16) defines it; format "acp-2026-04-17" receives 2026-04-17's full Order instead
// (acpFullOrder below: line-item quantities, fulfillments with events, refunds as adjustments). The same outbox events as every endpoint (order.paid,
// order.refunded, order.canceled of an order an ACP checkout session paid), the same sender, retries and
// delivery log (lib/webhooks/sender.ts); only the body and the signature header differ:
//   order.paid      -> order_create  { status: "confirmed" }   (the order exists once paid: complete captures)
//   order.refunded  -> order_update  { status: "confirmed", refunds: [{ type: "original_payment", amount }] }
//   order.canceled  -> order_update  { status: "canceled" }
// signed `Merchant-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` (Stripe's scheme: stripe's
// webhooks.constructEvent verifies it with the endpoint's secret). The sender finds this format in its
// table (lib/webhooks/formats.ts), where lib/register-adapters.ts puts it at startup.
import type { SoldItem } from "../checkouts/price-items";
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

// ---- 2026-04-17: the full Order ------------------------------------------------------------------------------

/** The order as its event stored it (lib/orders/serialize.ts). */
interface StoredOrder {
  id: string;
  status: string;
  amount: number;
  amountRefunded: number;
  currency: string;
  items: SoldItem[];
  createdAt: string;
}

/**
 * ACP 2026-04-17's Order of a service order. What the service sells through ACP is delivered digitally when it is
 * paid, so a paid order has one digital fulfillment, delivered at payment (its one event), every unit fulfilled,
 * and the order `completed`; a canceled one has nothing current. Refunds are one `refund` adjustment carrying the
 * amount refunded so far (the order event holds the cumulative amount, not each refund), and the `amount_refunded`
 * total. Line ids are the session's (`li_1`, ...).
 */
export function acpFullOrder(order: StoredOrder, checkoutSessionId: string, occurredAt: Date) {
  const canceled = order.status === "canceled";
  const currency = order.currency.toLowerCase();
  const lineItems = order.items.map((item, index) => ({
    id: `li_${index + 1}`,
    title: item.name,
    ...(item.productId ? { product_id: item.productId } : {}),
    quantity: { ordered: item.quantity, current: canceled ? 0 : item.quantity, fulfilled: canceled ? 0 : item.quantity },
    unit_price: item.unitAmount,
    subtotal: item.unitAmount * item.quantity,
    status: canceled ? "removed" : "fulfilled",
  }));
  const subtotal = lineItems.reduce((sum, line) => sum + line.subtotal, 0);
  return {
    type: "order" as const,
    id: order.id,
    checkout_session_id: checkoutSessionId,
    permalink_url: permalinkUrl(order.id),
    status: canceled ? "canceled" : "completed",
    line_items: lineItems,
    fulfillments: canceled
      ? []
      : [
          {
            id: `ful_${order.id}`,
            type: "digital" as const,
            status: "delivered",
            line_items: lineItems.map((line) => ({ id: line.id, quantity: line.quantity.ordered })),
            digital_delivery: { access_url: permalinkUrl(order.id) },
            events: [{ id: `fev_${order.id}_delivered`, type: "delivered", occurred_at: order.createdAt }],
          },
        ],
    adjustments:
      order.amountRefunded > 0
        ? [
            {
              id: `adj_${order.id}_refund`,
              type: "refund",
              occurred_at: occurredAt.toISOString(),
              status: "completed",
              amount: order.amountRefunded,
              currency,
            },
          ]
        : [],
    totals: [
      { type: "subtotal" as const, display_text: "Subtotal", amount: subtotal },
      { type: "total" as const, display_text: "Total", amount: order.amount },
      ...(order.amountRefunded > 0 ? [{ type: "amount_refunded" as const, display_text: "Refunded", amount: order.amountRefunded }] : []),
    ],
  };
}

/** Format "acp-2026-04-17": the same events, headers and signature as "acp"; the body carries the full Order. */
export const ACP_2026_04_17_WEBHOOK_FORMAT: WebhookFormat = {
  ...ACP_WEBHOOK_FORMAT,
  body: (event) =>
    JSON.stringify({
      type: event.event_type === "order.paid" ? "order_create" : "order_update",
      data: acpFullOrder((JSON.parse(event.event_data) as { object: StoredOrder }).object, event.session_id ?? "", event.event_created),
    }),
};
