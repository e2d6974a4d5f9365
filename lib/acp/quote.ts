// An open ACP session priced for API-Version 2026-01-30 and later: the catalog's lines (lib/acp/view-session.ts
// priceCart), the discount code the agent asked for (one per session), the merchant's flat shipping rate for carts
// with physical goods, and tax at the merchant's rate for the shipping address's country (docs/acp.md "Versions").
// What the quote says is what a completion charges: `sale` is the charge engine's items for exactly `total`.
//  - discount: percent_off of each line, or amount_off spread over the lines by their share (the last cent to the
//    largest); a second valid code is rejected (combination_disallowed), an unknown or foreign-currency one invalid;
//  - tax: per line on its amount after discount, rounded half up; shipping is not taxed;
//  - a discounted line is sold as an ad-hoc line at its discounted unit prices (the charge engine has no negative
//    lines), an undiscounted one as its catalog item; shipping and tax as ad-hoc lines.
import type { Db } from "../db";
import type { AcpCheckoutSession, AcpDiscountCode, Product } from "../generated/prisma/client";
import type { RedeemTokenInput } from "../shared-payment-tokens/schemas";
import { findDiscountCodes, loadCommerceSettings } from "./commerce-settings";
import { priceCart, type CartItem } from "./view-session";

export const SHIPPING_OPTION_ID = "shipping_standard";

/** A message of the 2026 versions (their MessageError codes are a superset of 2026-01-16's). */
export interface QuoteMessage {
  type: "error" | "info";
  code?: string;
  param?: string;
  content_type: "plain" | "markdown";
  content: string;
}
type DiscountRejection = "discount_code_invalid" | "discount_code_combination_disallowed";
type SaleItem = NonNullable<RedeemTokenInput["items"]>[number];

export interface QuoteLine {
  id: string;
  itemId: string;
  quantity: number;
  name?: string;
  unitAmount: number;
  base: number;
  discount: number;
  tax: number;
  total: number;
  ships: boolean;
}

export interface AppliedCode {
  code: AcpDiscountCode;
  amount: number;
  /** Per line index. */
  allocations: number[];
}

export interface Quote {
  currency: string;
  lines: QuoteLine[];
  /** Errors keep the session from payment; warnings (rejected codes) do not. */
  messages: QuoteMessage[];
  warnings: { code: DiscountRejection; param: string; content: string }[];
  /** Something only the agent can still give (a shipping address, a shipping option): status incomplete. */
  missing: boolean;
  offersDigital: boolean;
  /** The shipping rate offered, when a line ships and the merchant ships. */
  shippingRate: number | null;
  shippingChosen: boolean;
  codes: string[];
  applied?: AppliedCode;
  rejected: { code: string; reason: DiscountRejection }[];
  taxCountry?: string;
  taxRateBps: number;
  itemsBase: number;
  discount: number;
  fulfillment: number;
  tax: number;
  total: number;
  /** What a completion sells (only when nothing is wrong or missing). */
  sale: SaleItem[];
}

interface SelectedStored {
  type: string;
  shipping?: { option_id: string };
  digital?: { option_id: string };
}

export async function quoteSession(db: Db, session: AcpCheckoutSession): Promise<Quote> {
  const items = session.items as unknown as CartItem[];
  const [cart, settings] = await Promise.all([priceCart(db, session, items), loadCommerceSettings(db, session)]);
  const codes = session.discountCodes as string[];
  const found = await findDiscountCodes(db, session, codes);
  const lines: QuoteLine[] = cart.lines.map((line, index) => ({
    id: line.id,
    itemId: line.item.id,
    quantity: line.item.quantity,
    ...(line.name ? { name: line.name } : {}),
    unitAmount: line.unit_amount ?? 0,
    base: line.base_amount,
    discount: 0,
    tax: 0,
    total: line.base_amount,
    ships: cart.products.get(items[index].id)?.requiresShipping ?? false,
  }));
  const messages: QuoteMessage[] = [...cart.messages];
  const itemsBase = lines.reduce((sum, l) => sum + l.base, 0);

  const { applied, rejected } = chooseDiscount(codes, found, cart.currency, lines);
  if (applied) applied.allocations.forEach((amount, index) => (lines[index].discount = amount));

  const ships = lines.some((l) => l.ships);
  const address = (session.fulfillmentDetails as { address?: { country?: string } } | null)?.address;
  const selected = session.selectedFulfillmentOptions as unknown as SelectedStored[];
  const shippingChosen = selected.some((s) => s.type === "shipping" && s.shipping?.option_id === SHIPPING_OPTION_ID);
  const shippingRate = ships ? settings.shippingRate : null;
  let missing = false;
  if (ships && settings.shippingRate === null) {
    const index = lines.findIndex((l) => l.ships);
    messages.push(
      error(
        "unsupported",
        `$.line_items[${index}]`,
        `${lines[index].name ?? "This item"} needs shipping, which this merchant does not offer.`,
      ),
    );
  } else if (ships && !address) {
    missing = true;
    messages.push(error("missing", "$.fulfillment_details.address", "A shipping address is required for the items that ship."));
  } else if (ships && !shippingChosen) {
    missing = true;
    messages.push(error("missing", "$.selected_fulfillment_options", `Choose the shipping option "${SHIPPING_OPTION_ID}".`));
  }

  const taxCountry = address?.country?.toUpperCase();
  const taxRateBps = (taxCountry && settings.taxRates[taxCountry]) || 0;
  for (const line of lines) {
    line.tax = Math.round(((line.base - line.discount) * taxRateBps) / 10_000);
    line.total = line.base - line.discount + line.tax;
  }
  const discount = applied?.amount ?? 0;
  const fulfillment = shippingRate !== null && shippingChosen ? shippingRate : 0;
  const tax = lines.reduce((sum, l) => sum + l.tax, 0);
  const total = itemsBase - discount + fulfillment + tax;
  const ready = !missing && !messages.some((m) => m.type === "error");
  return {
    currency: cart.currency,
    lines,
    messages,
    warnings: rejected.map(({ code, reason }) => ({
      code: reason,
      param: `$.discounts.codes[${codes.indexOf(code)}]`,
      content: reason === "discount_code_invalid" ? `${code} is not a valid code here.` : `${code} cannot be combined with another code.`,
    })),
    missing,
    offersDigital: lines.some((l) => !l.ships),
    shippingRate,
    shippingChosen,
    codes,
    applied,
    rejected,
    ...(taxCountry ? { taxCountry } : {}),
    taxRateBps,
    itemsBase,
    discount,
    fulfillment,
    tax,
    total,
    sale: ready ? saleOf(lines, cart.products, fulfillment, tax, taxCountry, taxRateBps) : [],
  };
}

const error = (code: "missing" | "unsupported", param: string, content: string): QuoteMessage => ({
  type: "error",
  code,
  param,
  content_type: "plain",
  content,
});

/** The first valid code applies; the rest are rejected. */
function chooseDiscount(codes: string[], found: Map<string, AcpDiscountCode>, currency: string, lines: QuoteLine[]) {
  let applied: AppliedCode | undefined;
  const rejected: Quote["rejected"] = [];
  for (const code of codes) {
    const row = found.get(code);
    const usable = row && (row.percentOff !== null || row.currency?.toLowerCase() === currency);
    if (!usable) rejected.push({ code, reason: "discount_code_invalid" });
    else if (applied) rejected.push({ code, reason: "discount_code_combination_disallowed" });
    else applied = discountOf(row, lines);
  }
  return { applied, rejected };
}

function discountOf(code: AcpDiscountCode, lines: QuoteLine[]): AppliedCode {
  const bases = lines.map((l) => l.base);
  const allocations =
    code.percentOff !== null
      ? bases.map((base) => Math.floor((base * code.percentOff!) / 100))
      : spread(Math.min(code.amountOff!, sum(bases)), bases);
  return { code, amount: sum(allocations), allocations };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** `amount` spread over `weights` by share, rounded down, the remainder to the largest weight (never above it). */
function spread(amount: number, weights: number[]): number[] {
  const total = sum(weights);
  if (total === 0) return weights.map(() => 0);
  const shares = weights.map((w) => Math.floor((amount * w) / total));
  const largest = weights.indexOf(Math.max(...weights));
  shares[largest] += amount - sum(shares);
  return shares;
}

function saleOf(
  lines: QuoteLine[],
  products: Map<string, Product>,
  fulfillment: number,
  tax: number,
  country: string | undefined,
  rateBps: number,
): SaleItem[] {
  const sale: SaleItem[] = lines.flatMap((line): SaleItem[] => {
    if (line.discount === 0) return [{ productId: line.itemId, quantity: line.quantity }];
    // Each unit's share of the line's discount, the first `extra` units one minor unit more.
    const name = products.get(line.itemId)!.name;
    const each = Math.floor(line.discount / line.quantity);
    const extra = line.discount - each * line.quantity;
    return [
      { name, quantity: extra, unitAmount: line.unitAmount - each - 1 },
      { name, quantity: line.quantity - extra, unitAmount: line.unitAmount - each },
    ].filter((item) => item.quantity > 0);
  });
  if (fulfillment > 0) sale.push({ name: "Shipping", quantity: 1, unitAmount: fulfillment });
  if (tax > 0) sale.push({ name: `Tax (${country} ${rateBps / 100}%)`, quantity: 1, unitAmount: tax });
  return sale;
}
