// Pays a checkout from the hosted page: validates the card form again on the server, maps the test card
// number to its test payment method (lib/rails/test-cards.ts) and runs the API's own captureCheckout in
// one transaction. The checkout row lock inside captureCheckout makes a second submission a 409 (shown as
// "already paid"), so a double submit can never charge twice.
import { captureCheckout } from "../checkouts/capture-checkout";
import { getDb, transaction, type Db } from "../db";
import {
  BusyError,
  CircuitOpenError,
  DomainError,
  keepCommittedState,
  NotFoundError,
  PaymentDeclinedError,
  SanctionsBlockedError,
  UpstreamError,
  ValidationError,
} from "../errors";
import { isAgenticTokenNumber, payWithTokenNumber } from "../mastercard/pay-with-card-form";
import { paymentMethodForTestCard } from "../rails/test-cards";
import { validateCard, type CardFieldErrors, type CardForm } from "./card";
import { COUNTRY_CODES } from "./countries";
import { checkoutScope } from "./load-pay-page";

export type PayOutcome =
  | { kind: "paid" }
  | { kind: "declined"; reason: string }
  /** The checkout is no longer open: complete (already paid), expired, canceled or failed. */
  | { kind: "closed"; status: string }
  | { kind: "invalid"; errors: CardFieldErrors; code: "invalid_card" | "not_test_card" }
  | { kind: "blocked"; country: string }
  | { kind: "unavailable"; code: "unavailable" | "live_unavailable" }
  | { kind: "not_found" };

const TOKEN_REFUSED: PayOutcome = {
  kind: "invalid",
  errors: { cardNumber: "This card was refused: check the number and the code. For an agentic token, ask your agent for a fresh code." },
  code: "invalid_card",
};

export async function payCheckout(checkoutId: string, form: CardForm, now: Date = new Date(), db: Db = getDb()): Promise<PayOutcome> {
  const scope = await checkoutScope(db, checkoutId);
  if (!scope) return { kind: "not_found" };

  const checked = validateCard(form, now);
  if (!checked.ok) return { kind: "invalid", errors: checked.errors, code: "invalid_card" };
  const { card } = checked;
  if (!COUNTRY_CODES.has(card.billingCountry))
    return { kind: "invalid", errors: { billingCountry: "Choose your billing country." }, code: "invalid_card" };

  // A Mastercard agentic token number with its code as the CVC (docs/cards.md "The hosted card form"): by its
  // shape alone, never by a lookup, so that an unknown number and a refused token answer alike.
  const agenticToken = isAgenticTokenNumber(card.number);
  const paymentMethod = agenticToken ? "agentic_token" : paymentMethodForTestCard(card.number);
  if (!paymentMethod) {
    if (scope.livemode) return { kind: "unavailable", code: "live_unavailable" };
    return {
      kind: "invalid",
      errors: { cardNumber: "This is a test checkout: use a test card such as 4242 4242 4242 4242." },
      code: "not_test_card",
    };
  }

  let failure: unknown = null;
  try {
    // A decline (or a closed checkout the capture noticed) writes state that must commit.
    const settled = await transaction((tx) =>
      keepCommittedState(async () => {
        if (agenticToken)
          await payWithTokenNumber(tx, scope.livemode, checkoutId, card.number, card.cvc, {
            billingCountry: card.billingCountry,
            billingName: card.name,
          });
        else await captureCheckout(tx, scope, checkoutId, { paymentMethod, billingCountry: card.billingCountry, billingName: card.name });
      }),
    );
    failure = settled.ok ? null : settled.error;
  } catch (err) {
    failure = err;
  }
  if (!failure) return { kind: "paid" };
  if (failure instanceof PaymentDeclinedError) return { kind: "declined", reason: String(failure.details.reason ?? "generic_decline") };
  // An agentic token refused before any charge (nothing written), or no token of that number, or one in use:
  // ONE answer, whatever the reason, so the form never tells whether a token exists or what state it is in.
  if (agenticToken && failure instanceof BusyError) return TOKEN_REFUSED;
  if (failure instanceof DomainError && (failure.code === "PAYMENT_DECLINED" || failure.code === "FORBIDDEN")) {
    if (agenticToken) return TOKEN_REFUSED;
    return {
      kind: "invalid",
      errors: { cardNumber: `This card cannot pay this checkout (${String(failure.details.reason ?? "")}).` },
      code: "invalid_card",
    };
  }
  if (failure instanceof DomainError && failure.code === "CONFLICT")
    return { kind: "closed", status: String(failure.details.status ?? "closed") };
  if (failure instanceof SanctionsBlockedError) return { kind: "blocked", country: card.billingCountry };
  if (failure instanceof CircuitOpenError || failure instanceof UpstreamError) {
    return { kind: "unavailable", code: scope.livemode ? "live_unavailable" : "unavailable" };
  }
  if (failure instanceof ValidationError)
    return { kind: "invalid", errors: { cardNumber: "This card cannot be used here." }, code: "invalid_card" };
  if (failure instanceof NotFoundError) return { kind: "not_found" };
  throw failure;
}
