// A checkout session as ACP shows it (its authoritative cart state), priced from the merchant's product
// catalog (lib/products) each time it is read while open, and from what its order sold once completed.
// An item naming no product of this merchant and mode is `invalid`, an archived product `out_of_stock`, a
// product in another currency than the cart's `invalid`: each an error message (param = its line item's
// JSONPath) that keeps the session not_ready_for_payment. Digital goods: one free digital fulfillment
// option, no tax (the catalog has none).
import type { Db } from "../db";
import type { Scope } from "../scope";
import { env } from "../env";
import type { AcpCheckoutSession, Product } from "../generated/prisma/client";
import type { SoldItem } from "../checkouts/price-items";
import { serviceReceiptOf } from "../receipts/service-receipt";
import { awaitsApproval } from "../approvals/read";
import type { CheckoutSessionObject } from "./schemas";
import { authenticationView } from "./three-ds";
import { legacyOpenStatus } from "./session-status";
import type { StoredSessionStatus } from "./transitions";

type Line = CheckoutSessionObject["line_items"][number];
type Message = CheckoutSessionObject["messages"][number];
type Total = CheckoutSessionObject["totals"][number];

export interface CartItem {
  id: string;
  quantity: number;
}

/** The session's cart, priced: what a completion would sell (only when nothing is wrong). */
export interface PricedCart {
  currency: string;
  lines: Line[];
  messages: Message[];
  total: number;
  /** Catalog items to sell, when the cart is ready for payment. */
  sale: { productId: string; quantity: number }[];
  /** The cart's products of this merchant and mode, by id. */
  products: Map<string, Product>;
}

export const DIGITAL_OPTION_ID = "digital";

/** The id of the ACP checkout session that made this order of the scope, or null (the dashboard's order page). */
export async function sessionIdOfOrder(db: Db, scope: Scope, orderId: string): Promise<string | null> {
  const session = await db.acpCheckoutSession.findFirst({
    where: { orderId, merchantId: scope.merchantId, livemode: scope.livemode },
    select: { id: true },
  });
  return session?.id ?? null;
}

export function permalinkUrl(orderId: string): string {
  return `${env.BASE_URL}/acp/orders/${orderId}`;
}

function line(index: number, item: CartItem, unitAmount: number, product?: Product): Line {
  const base = unitAmount * item.quantity;
  return {
    id: `li_${index + 1}`,
    item: { id: item.id, quantity: item.quantity },
    base_amount: base,
    discount: 0,
    subtotal: base,
    tax: 0,
    total: base,
    ...(product
      ? { name: product.name, unit_amount: unitAmount, ...(product.description ? { description: product.description } : {}) }
      : {}),
  };
}

const errorMessage = (code: "invalid" | "out_of_stock", index: number, content: string): Message => ({
  type: "error",
  code,
  param: `$.line_items[${index}]`,
  content_type: "plain",
  content,
});

/** Prices a cart from the catalog of this merchant and mode. */
export async function priceCart(db: Db, scope: { merchantId: string; livemode: boolean }, items: CartItem[]): Promise<PricedCart> {
  const ids = [...new Set(items.map((item) => item.id))];
  const products = new Map(
    (await db.product.findMany({ where: { id: { in: ids }, merchantId: scope.merchantId, livemode: scope.livemode } })).map((p) => [
      p.id,
      p,
    ]),
  );
  const currency = (
    items.map((item) => products.get(item.id)).find((p) => p?.active)?.currency ??
    items.map((item) => products.get(item.id)).find(Boolean)?.currency ??
    "USD"
  ).toLowerCase();
  const lines: Line[] = [];
  const messages: Message[] = [];
  items.forEach((item, index) => {
    const product = products.get(item.id);
    if (!product) {
      lines.push(line(index, item, 0));
      messages.push(errorMessage("invalid", index, `No product ${item.id.slice(0, 80)} in this merchant's catalog.`));
      return;
    }
    lines.push(line(index, item, product.unitAmount, product));
    if (!product.active) messages.push(errorMessage("out_of_stock", index, `${product.name} is no longer sold.`));
    else if (product.currency.toLowerCase() !== currency)
      messages.push(
        errorMessage("invalid", index, `${product.name} is priced in ${product.currency}, the cart is in ${currency.toUpperCase()}.`),
      );
  });
  const total = lines.reduce((sum, l) => sum + l.total, 0);
  return {
    currency,
    lines,
    messages,
    total,
    sale: messages.length ? [] : items.map((item) => ({ productId: item.id, quantity: item.quantity })),
    products,
  };
}

function totals(lines: Line[]): Total[] {
  const base = lines.reduce((sum, l) => sum + l.base_amount, 0);
  const subtotal = lines.reduce((sum, l) => sum + l.subtotal, 0);
  const total = lines.reduce((sum, l) => sum + l.total, 0);
  return [
    { type: "items_base_amount", display_text: "Item(s) total", amount: base },
    { type: "subtotal", display_text: "Subtotal", amount: subtotal },
    { type: "fulfillment", display_text: "Digital delivery", amount: 0 },
    { type: "tax", display_text: "Tax", amount: 0 },
    { type: "total", display_text: "Total", amount: total },
  ];
}

/** The lines an order sold (copied from the catalog when it was paid). */
function soldLines(items: SoldItem[]): Line[] {
  return items.map((sold, index) => {
    const base = sold.unitAmount * sold.quantity;
    return {
      id: `li_${index + 1}`,
      item: { id: sold.productId ?? `item_${index + 1}`, quantity: sold.quantity },
      base_amount: base,
      discount: 0,
      subtotal: base,
      tax: 0,
      total: base,
      name: sold.name,
      unit_amount: sold.unitAmount,
    };
  });
}

export async function viewSession(db: Db, session: AcpCheckoutSession, priced?: PricedCart): Promise<CheckoutSessionObject> {
  const status = session.status as StoredSessionStatus;
  let lines: Line[];
  let messages: Message[] = [];
  let currency: string;
  let order: CheckoutSessionObject["order"];
  if (status === "completed" && session.orderId) {
    const sold = await db.order.findUniqueOrThrow({ where: { id: session.orderId } });
    lines = soldLines(sold.items as SoldItem[]);
    currency = sold.currency.toLowerCase();
    order = {
      id: sold.id,
      checkout_session_id: session.id,
      permalink_url: permalinkUrl(sold.id),
      ...(await serviceReceiptOf(db, sold.paymentIntentId)),
    };
  } else {
    const cart = priced ?? (await priceCart(db, session, session.items as unknown as CartItem[]));
    lines = cart.lines;
    messages = cart.messages;
    currency = cart.currency;
  }
  const selected = session.selectedFulfillmentOptions as CheckoutSessionObject["selected_fulfillment_options"];
  return {
    id: session.id,
    ...(session.buyer ? { buyer: session.buyer as CheckoutSessionObject["buyer"] } : {}),
    // The PSP is this service (payment_data.provider "service"); ACP 2026-01-16 lists only "stripe" here, the
    // alias this service accepts, and merchant_id is what delegate_payment's allowance must name.
    payment_provider: {
      provider: "stripe",
      merchant_id: session.merchantId,
      supported_payment_methods: [{ type: "card", supported_card_networks: ["mastercard", "visa"] }],
    },
    status:
      (await legacyOpenStatus(db, session)) ?? // expired or being completed (lib/acp/session-status.ts)
      (status !== "open"
        ? status
        : // The payer's approval pending (docs/approvals.md): 2026-01-16 has no pending_approval, and in_progress
          // is its status for a payment under way.
          (await awaitsApproval(db, session.id))
          ? "in_progress"
          : messages.some((m) => m.type === "error")
            ? "not_ready_for_payment"
            : "ready_for_payment"),
    currency,
    line_items: lines,
    ...(session.fulfillmentDetails
      ? { fulfillment_details: session.fulfillmentDetails as CheckoutSessionObject["fulfillment_details"] }
      : {}),
    fulfillment_options: [
      { type: "digital", id: DIGITAL_OPTION_ID, title: "Digital delivery", totals: [{ type: "total", display_text: "Free", amount: 0 }] },
    ],
    ...(selected && selected.length ? { selected_fulfillment_options: selected } : {}),
    totals: totals(lines),
    messages,
    links: [],
    ...(order ? { order } : {}),
    ...(await authenticationView(db, session)), // 3-D Secure: authentication_required and its metadata (lib/acp/three-ds.ts)
  };
}
