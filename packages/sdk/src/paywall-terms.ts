// The terms a paywall charges (docs/sdk.md "Paywall (single-use), for MCP tools"), checked once at construction, and the gate built
// from them. Price and currency are authoritative: the caller's proof is verified against these.
import type { PaywallReasonCode } from "./types";

export interface PaywallTerms {
  merchantId: string;
  /** Integer, minor units (e.g. cents), at least 1. */
  price: number;
  /** ISO 4217 code, any case; carried upper-case. */
  currency: string;
  sku: string;
  productRef?: string;
}

/** docs/sdk.md "Paywall (single-use), for MCP tools": returned instead of running the tool when a call is unpaid or its proof fails. */
export interface PaywallGate {
  kind: "payment_required";
  merchant: string;
  amount: number;
  currency: string;
  sku: string;
  payEndpoint: string;
  productRef?: string;
  reasonCode?: PaywallReasonCode;
  [field: string]: unknown;
}

/** Returned instead of running the tool when the presented payment has already unlocked a call. */
export interface AlreadyRedeemed {
  kind: "already_redeemed";
  result: "already_redeemed";
  paymentIntentId: string;
  message: string;
  [field: string]: unknown;
}

export interface PaymentBlock {
  status: "paid";
  paymentIntentId: string;
}

export const REASON_CODES: readonly PaywallReasonCode[] = [
  "not_captured",
  "insufficient_amount",
  "currency_mismatch",
  "reference_mismatch",
  "not_found",
];

/** Checks and normalises the terms; throws a TypeError naming the bad option. */
export function validateTerms(name: string, terms: PaywallTerms): PaywallTerms {
  if (typeof terms.merchantId !== "string" || terms.merchantId.trim() === "") throw new TypeError(`${name}: merchantId is required.`);
  if (!Number.isSafeInteger(terms.price) || terms.price < 1)
    throw new TypeError(`${name}: price must be a positive integer in minor units (got ${String(terms.price)}).`);
  if (typeof terms.currency !== "string" || !/^[A-Za-z]{3}$/.test(terms.currency))
    throw new TypeError(`${name}: currency must be a three-letter ISO 4217 code (got ${String(terms.currency)}).`);
  if (typeof terms.sku !== "string" || terms.sku.trim() === "") throw new TypeError(`${name}: sku is required.`);
  if (terms.productRef !== undefined && (typeof terms.productRef !== "string" || !terms.productRef.startsWith("prd_"))) {
    throw new TypeError(`${name}: productRef must start with "prd_".`);
  }
  return { ...terms, currency: terms.currency.toUpperCase() };
}

export function buildGate(terms: PaywallTerms, payEndpoint: string, reasonCode?: PaywallReasonCode): PaywallGate {
  const gate: PaywallGate = {
    kind: "payment_required",
    merchant: terms.merchantId,
    amount: terms.price,
    currency: terms.currency,
    sku: terms.sku,
    payEndpoint,
  };
  if (terms.productRef) gate.productRef = terms.productRef;
  if (reasonCode) gate.reasonCode = reasonCode;
  return gate;
}

export function alreadyRedeemed(paymentIntentId: string): AlreadyRedeemed {
  return {
    kind: "already_redeemed",
    result: "already_redeemed",
    paymentIntentId,
    message: "This payment has already unlocked a call; pay again for another call.",
  };
}

/** A sentence for agents reading the text content: what to do next. */
export function gateHint(gate: PaywallGate): string {
  const pay = `Pay ${gate.amount} ${gate.currency} (minor units) to merchant ${gate.merchant} for sku ${gate.sku} at ${gate.payEndpoint}, then call again with _servicePayment: { paymentIntentId }.`;
  switch (gate.reasonCode) {
    case undefined:
      return `Payment required. ${pay}`;
    case "not_captured":
      return "The payment is not captured yet: wait and retry with the same proof.";
    case "not_found":
      return `The presented payment was not found. ${pay}`;
    default:
      return `The presented payment does not fit these terms (${gate.reasonCode}); do not retry it. ${pay}`;
  }
}

/**
 * The PaymentIntent id of a proof: `{ paymentIntentId }`, or a bare id string, or a JSON text of either
 * (as sent in an HTTP header). Null when the value carries no usable id.
 */
export function proofPaymentIntentId(proof: unknown): string | null {
  if (typeof proof === "string") {
    const text = proof.trim();
    if (text.startsWith("{")) {
      try {
        return proofPaymentIntentId(JSON.parse(text));
      } catch {
        return null;
      }
    }
    return isPlausibleId(text) ? text : null;
  }
  if (typeof proof === "object" && proof !== null) {
    const id = (proof as { paymentIntentId?: unknown }).paymentIntentId;
    return typeof id === "string" && isPlausibleId(id.trim()) ? id.trim() : null;
  }
  return null;
}

function isPlausibleId(id: string): boolean {
  return id.length > 0 && id.length <= 255 && /^[\x21-\x7E]+$/.test(id);
}
