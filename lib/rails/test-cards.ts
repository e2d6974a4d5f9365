// Test instruments (docs/payments.md): payment-method ids for the API, card numbers for the hosted pay page.
// Pure data and functions, so the pay page can map a typed card number to its outcome. Looked up only
// through ownValue (own keys: `constructor` is no payment method).
import { ownValue } from "../own-key";

export type TestOutcome =
  { status: "succeeded" } | { status: "declined"; reason: string } | { status: "unavailable" } | { status: "pending" };

export const TEST_PAYMENT_METHODS: Record<string, TestOutcome> = {
  pm_card_visa: { status: "succeeded" },
  pm_card_mastercard: { status: "succeeded" },
  pm_card_chargeDeclined: { status: "declined", reason: "generic_decline" },
  pm_card_chargeDeclinedInsufficientFunds: { status: "declined", reason: "insufficient_funds" },
  pm_card_chargeDeclinedExpiredCard: { status: "declined", reason: "expired_card" },
  pm_rail_unavailable: { status: "unavailable" },
  // Answers `pending` (the PaymentIntent goes processing); the rail's next retrieveCharge of the key succeeds.
  pm_card_pending: { status: "pending" },
  // Succeed, then the tick opens a dispute DISPUTE_TEST_DELAY_SECONDS later (lib/disputes/test-disputes.ts, docs/disputes.md).
  pm_card_createDispute: { status: "succeeded" },
  pm_card_createDisputeProductNotReceived: { status: "succeeded" },
  pm_card_createDisputeUnrecognized: { status: "succeeded" },
  pm_card_createDisputeDuplicate: { status: "succeeded" },
  pm_card_createDisputeSubscriptionCanceled: { status: "succeeded" },
  pm_card_createDisputeInquiry: { status: "succeeded" },
  // Demands 3-D Secure (Stripe's 4000002760003184): charged only with an authentication the caller verified (an
  // ACP authentication_result, lib/acp/three-ds.ts); without one the rail declines it `authentication_required`.
  pm_card_authenticationRequired: { status: "succeeded" },
};

/** Payment methods the rail charges only when the payer passed 3-D Secure for the charge. */
const AUTHENTICATION_REQUIRED = new Set(["pm_card_authenticationRequired"]);

export function requiresAuthentication(paymentMethod: string): boolean {
  return AUTHENTICATION_REQUIRED.has(paymentMethod);
}

/** The outcome of a test payment method id, or undefined for an id the table does not hold. */
export function testPaymentMethodOutcome(paymentMethod: string): TestOutcome | undefined {
  return ownValue(TEST_PAYMENT_METHODS, paymentMethod);
}

/** Card number (digits only) -> the payment method with the same outcome. */
export const TEST_CARD_NUMBERS: Record<string, string> = {
  "4242424242424242": "pm_card_visa",
  "5555555555554444": "pm_card_mastercard",
  "4000000000000002": "pm_card_chargeDeclined",
  "4000000000009995": "pm_card_chargeDeclinedInsufficientFunds",
  "4000000000000069": "pm_card_chargeDeclinedExpiredCard",
  // Stripe's dispute test cards: a fraudulent dispute, product not received, an inquiry (docs/disputes.md).
  "4000000000000259": "pm_card_createDispute",
  "4000000000002685": "pm_card_createDisputeProductNotReceived",
  "4000000000001976": "pm_card_createDisputeInquiry",
  // 3-D Secure required (docs/acp.md "3-D Secure").
  "4000002760003184": "pm_card_authenticationRequired",
};

/** Maps a test card number (spaces and dashes allowed) to the payment method to capture with, or null. */
export function paymentMethodForTestCard(cardNumber: string): string | null {
  return ownValue(TEST_CARD_NUMBERS, cardNumber.replace(/[\s-]/g, "")) ?? null;
}

/** The outcome a test card number produces, or null for a number the test rail does not know. */
export function testCardOutcome(cardNumber: string): TestOutcome | null {
  const method = paymentMethodForTestCard(cardNumber);
  return method ? (testPaymentMethodOutcome(method) ?? null) : null;
}

/**
 * A paywall payer may pay another merchant from one of its OWN customers' wallets (walletOwner): that
 * `cus_` id is the payer's, so the payee's objects show only that a customer wallet paid. The rail keeps
 * the real method on its own books (refunds go back to the wallet).
 */
export const FOREIGN_WALLET_METHOD = "customer_wallet";

export function isCustomerWalletMethod(paymentMethod: string): boolean {
  return /^cus_[0-9A-Za-z]{10,64}$/.test(paymentMethod);
}

/**
 * An x402 payment on the test network (lib/x402): `x402:eip155:84532:<payer address>`. The test rail records
 * it as a succeeded charge (the signed authorization is the funds; there is no chain in test mode). Not a
 * method the API accepts from payers: only a capture whose payment the service verified uses it.
 */
export function isX402TestPaymentMethod(paymentMethod: string): boolean {
  return /^x402:eip155:84532:0x[0-9a-fA-F]{40}$/.test(paymentMethod);
}
