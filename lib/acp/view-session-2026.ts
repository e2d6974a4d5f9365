// A checkout session as ACP 2026-01-30 and 2026-04-17 show it: the negotiated capabilities (lib/acp/capabilities.ts),
// the quote (lib/acp/quote.ts: lines with their totals, fulfillment options and groups, discounts, tax), the status
// of lib/acp/session-status.ts, and once completed the order with the quote it charged. The service's signed receipt
// (docs/receipts.md) travels in `metadata.service_receipt`: these versions' Order is closed to other fields.
import { awaitsApproval } from "../approvals/read";
import type { Db } from "../db";
import type { AcpCheckoutSession } from "../generated/prisma/client";
import { serviceReceiptOf } from "../receipts/service-receipt";
import { acceptsSptHandler, negotiate } from "./capabilities";
import { quoteSession, SHIPPING_OPTION_ID, type Quote, type QuoteLine } from "./quote";
import type { AgentCapabilitiesInput, HandlerVersion } from "./schemas-2026";
import { completionInProgress, status2026 } from "./session-status";
import { authenticationView } from "./three-ds";
import type { AcpVersion } from "./schemas";
import { DIGITAL_OPTION_ID, permalinkUrl, viewSession } from "./view-session";

type Json = Record<string, unknown>;

const total = (type: string, display_text: string, amount: number) => ({ type, display_text, amount });

function lineView(line: QuoteLine) {
  return {
    id: line.id,
    item: { id: line.itemId },
    quantity: line.quantity,
    ...(line.name ? { name: line.name } : {}),
    unit_amount: line.unitAmount,
    totals: [
      total("items_base_amount", "Base amount", line.base),
      ...(line.discount ? [total("discount", "Discount", line.discount)] : []),
      total("subtotal", "Subtotal", line.base - line.discount),
      total("tax", "Tax", line.tax),
      total("total", "Total", line.total),
    ],
  };
}

function totalsView(quote: Quote) {
  return [
    total("items_base_amount", "Item(s) total", quote.itemsBase),
    ...(quote.discount ? [{ ...total("discount", `Discount (${quote.applied?.code.code})`, quote.discount) }] : []),
    total("subtotal", "Subtotal", quote.itemsBase - quote.discount),
    total("fulfillment", quote.fulfillment ? "Shipping" : "Fulfillment", quote.fulfillment),
    {
      ...total("tax", "Tax", quote.tax),
      ...(quote.tax ? { breakdown: [{ jurisdiction: quote.taxCountry, rate: quote.taxRateBps / 10_000, amount: quote.tax }] } : {}),
    },
    total("total", "Total", quote.total),
  ];
}

function fulfillmentView(quote: Quote, session: AcpCheckoutSession) {
  const digital = quote.lines.filter((l) => !l.ships).map((l) => l.id);
  const shipped = quote.lines.filter((l) => l.ships).map((l) => l.id);
  const options = [
    ...(quote.offersDigital
      ? [{ type: "digital", id: DIGITAL_OPTION_ID, title: "Digital delivery", totals: [total("total", "Free", 0)] }]
      : []),
    ...(quote.shippingRate !== null
      ? [{ type: "shipping", id: SHIPPING_OPTION_ID, title: "Standard shipping", totals: [total("total", "Shipping", quote.shippingRate)] }]
      : []),
  ];
  const details = session.fulfillmentDetails as Json | null;
  const groups = [
    ...(digital.length ? [{ id: "fg_digital", item_ids: digital, destination_type: "digital" }] : []),
    ...(shipped.length
      ? [{ id: "fg_shipping", item_ids: shipped, destination_type: "shipping", ...(details ? { fulfillment_details: details } : {}) }]
      : []),
  ];
  // Stored as 2026-01-16 nests them ({ type, <type>: { option_id, item_ids } }); these versions flatten them.
  const selected = (session.selectedFulfillmentOptions as { type: string; [type: string]: unknown }[]).map((s) => ({
    type: s.type,
    ...(s[s.type] as { option_id: string; item_ids: string[] }),
  }));
  return {
    fulfillment_options: options,
    fulfillment_groups: groups,
    ...(selected.length ? { selected_fulfillment_options: selected } : {}),
  };
}

function discountsView(quote: Quote) {
  const applied = quote.applied;
  return {
    codes: quote.codes,
    applied: applied
      ? [
          {
            id: `dsc_${applied.code.code}`,
            code: applied.code.code,
            coupon: {
              id: applied.code.code,
              name: applied.code.name,
              ...(applied.code.percentOff !== null
                ? { percent_off: applied.code.percentOff }
                : { amount_off: applied.code.amountOff, currency: applied.code.currency?.toLowerCase() }),
            },
            amount: applied.amount,
            method: "across",
            allocations: applied.allocations.flatMap((amount, index) => (amount ? [{ path: `$.line_items[${index}]`, amount }] : [])),
          },
        ]
      : [],
    rejected: quote.rejected,
  };
}

export async function viewSession2026(db: Db, session: AcpCheckoutSession, version: HandlerVersion): Promise<Json> {
  const agent = session.capabilities as AgentCapabilitiesInput | null;
  const capabilities = negotiate(agent, version, session.merchantId);
  const quote = (session.status !== "open" && (session.completedQuote as unknown as Quote | null)) || (await quoteSession(db, session));
  const messages: { type: string; code?: string; param?: string; content_type: string; content: string }[] = [
    ...quote.messages,
    ...quote.warnings.map((w) => ({ type: "warning", ...w, content_type: "plain" })),
    ...(acceptsSptHandler(agent)
      ? []
      : [
          {
            type: "error",
            code: "unsupported",
            param: "$.capabilities.payment",
            content_type: "plain",
            content:
              "None of the declared payment handlers is offered: this merchant takes shared payment tokens (handler shared_payment_token).",
          },
        ]),
  ];
  const open = session.status === "open";
  const status = status2026(session, {
    awaitingApproval: open && (await awaitsApproval(db, session.id)),
    completing: open && (await completionInProgress(db, session.id)),
    agentCan3ds: capabilities.interventions.supported.includes("3ds"),
    errors: messages.some((m) => m.type === "error" && m.code !== "missing"),
    missing: quote.missing,
  });
  const { authentication_metadata } = (await authenticationView(db, session)) as Json;
  const order = session.status === "completed" && session.orderId ? session.orderId : undefined;
  const receipt = order && session.paymentIntentId ? await serviceReceiptOf(db, session.paymentIntentId) : {};
  return {
    id: session.id,
    protocol: { version },
    capabilities,
    ...(session.buyer ? { buyer: session.buyer } : {}),
    status,
    currency: quote.currency,
    line_items: quote.lines.map(lineView),
    ...(session.fulfillmentDetails ? { fulfillment_details: session.fulfillmentDetails } : {}),
    ...fulfillmentView(quote, session),
    totals: totalsView(quote),
    messages,
    links: [],
    ...(authentication_metadata ? { authentication_metadata } : {}),
    created_at: session.createdAt.toISOString(),
    updated_at: session.updatedAt.toISOString(),
    ...(session.expiresAt ? { expires_at: session.expiresAt.toISOString() } : {}),
    ...(capabilities.extensions ? { discounts: discountsView(quote) } : {}),
    ...(receipt.serviceReceipt ? { metadata: { service_receipt: receipt.serviceReceipt } } : {}),
    ...(order
      ? {
          order: {
            ...(version === "2026-04-17" ? { type: "order" } : {}),
            id: order,
            checkout_session_id: session.id,
            permalink_url: permalinkUrl(order),
            status: "confirmed",
          },
        }
      : {}),
  };
}

/** The session as the API-Version asked shows it. */
export function viewInVersion(db: Db, session: AcpCheckoutSession, version: AcpVersion): Promise<unknown> {
  return version === "2026-01-16" ? viewSession(db, session) : viewSession2026(db, session, version);
}
