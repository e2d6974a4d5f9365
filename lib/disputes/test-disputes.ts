// The test rail's disputes (docs/disputes.md), after Stripe's test instruments: a payment captured with one of these
// methods (or the pay page's card numbers that map to them, lib/rails/test-cards.ts) is disputed by the tick
// DISPUTE_TEST_DELAY_SECONDS after its capture, once settled; the outcome of submitted evidence follows its
// `uncategorizedText`, as Stripe's test mode does.
import { ownValue } from "../own-key";

export interface TestDispute {
  reason: string;
  /** An inquiry (a warning: `warning_needs_response`), which holds no money and costs no fee. */
  inquiry: boolean;
}

export const TEST_DISPUTE_METHODS: Record<string, TestDispute> = {
  pm_card_createDispute: { reason: "fraudulent", inquiry: false },
  pm_card_createDisputeProductNotReceived: { reason: "product_not_received", inquiry: false },
  pm_card_createDisputeUnrecognized: { reason: "unrecognized", inquiry: false },
  pm_card_createDisputeDuplicate: { reason: "duplicate", inquiry: false },
  pm_card_createDisputeSubscriptionCanceled: { reason: "subscription_canceled", inquiry: false },
  pm_card_createDisputeInquiry: { reason: "general", inquiry: true },
};

/** The dispute a test payment method opens, or undefined for any other method. */
export function testDisputeFor(paymentMethod: string | null): TestDispute | undefined {
  return paymentMethod ? ownValue(TEST_DISPUTE_METHODS, paymentMethod) : undefined;
}

/** The text in `evidence.uncategorizedText` that wins a test dispute (anything else loses it: `losing_evidence`). */
export const WINNING_EVIDENCE = "winning_evidence";

/** Stripe's dispute fee, $15.00; the same 1500 minor units in any other currency. Returned when the dispute is won. */
export const DISPUTE_FEE = 1500;

/** Days the merchant has to respond (`evidenceDueBy`); after it an open dispute is lost, an inquiry closes. */
export const EVIDENCE_DAYS = 7;
