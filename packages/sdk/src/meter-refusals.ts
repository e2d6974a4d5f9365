// The two refusals of a meter that the metered paywall turns into gates (docs/meters.md, docs/sdk.md):
//   insufficient_budget: a prepaid budget cannot cover the call; the payer tops it up.
//   meter_past_due: an aggregate charge was declined; the meter takes no usage until the payer settles it.
// The service names them in `details.reason` of a 402 PAYMENT_DECLINED. Any other error (another 402
// included: a declined card is not a budget prompt) is no refusal and stays a ServiceError.
import { ServiceError } from "./errors";

export interface InsufficientBudgetRefusal {
  ok: false;
  reason: "insufficient_budget";
  details?: Record<string, unknown>;
  /** The service's top-up endpoint (details.topUp.url). */
  topUpUrl?: string;
  /** Where the PAYER funds the budget with its own key (details.topUp.payerUrl: POST /v1/meters/:id/fund). */
  fundUrl?: string;
  /** The least top-up that lets this call run (details.topUp.minimumAmountMinor), in minor units. */
  minimumAmountMinor?: number;
}

export interface PastDueRefusal {
  ok: false;
  reason: "meter_past_due";
  details?: Record<string, unknown>;
  /** The service's retry-payment endpoint (details.retryPayment.url). */
  retryPaymentUrl?: string;
}

export type MeterRefusal = InsufficientBudgetRefusal | PastDueRefusal;

/**
 * Prepaid: the reservation the call asked for is not a new hold of this call (the service said
 * `created: false`, or 409 `reservation_already_used`: its key paid for a call that has finished). The
 * paid call must not run; nothing is billed or released for it.
 */
export interface AlreadyUsedRefusal {
  ok: false;
  reason: "already_used";
  reservationId?: string;
  /** The reservation's status when known: held (another call's hold), committed or released. */
  status?: string;
  details?: Record<string, unknown>;
}

/** The service's 409 for a reservation key whose reservation has finished, or null for anything else. */
export function alreadyUsedOf(err: unknown): AlreadyUsedRefusal | null {
  if (!ServiceError.is(err) || err.details.reason !== "reservation_already_used") return null;
  const { reservationId, status } = err.details;
  return {
    ok: false,
    reason: "already_used",
    details: err.details,
    ...(typeof reservationId === "string" ? { reservationId } : {}),
    ...(typeof status === "string" ? { status } : {}),
  };
}

/** The refusal a service error carries, or null when it is any other failure. */
export function meterRefusalOf(err: unknown): MeterRefusal | null {
  if (!ServiceError.is(err)) return null;
  const reason = err.details.reason ?? err.code;
  if (reason === "insufficient_budget") {
    const topUp = objectOrEmpty(err.details.topUp);
    return {
      ok: false,
      reason,
      details: err.details,
      ...(typeof topUp.url === "string" ? { topUpUrl: topUp.url } : {}),
      ...(typeof topUp.payerUrl === "string" ? { fundUrl: topUp.payerUrl } : {}),
      ...(Number.isSafeInteger(topUp.minimumAmountMinor) ? { minimumAmountMinor: topUp.minimumAmountMinor as number } : {}),
    };
  }
  if (reason === "meter_past_due") {
    const retryPayment = objectOrEmpty(err.details.retryPayment);
    return {
      ok: false,
      reason,
      details: err.details,
      ...(typeof retryPayment.url === "string" ? { retryPaymentUrl: retryPayment.url } : {}),
    };
  }
  return null;
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
