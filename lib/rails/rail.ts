// The small interface every payment rail implements. A rail is an external system: it keeps its own books,
// is idempotent on the caller's key, and is reached only through the circuit breaker (lib/rails/index.ts).

export interface ChargeRequest {
  /** Idempotency key: a second charge with the same key returns the first one's result, charging nothing. */
  key: string;
  amount: number;
  currency: string;
  paymentMethod: string;
  /** The payer passed 3-D Secure for this charge (verified by the caller: an ACP authentication_result). */
  authenticated?: boolean;
}

/**
 * The rail's answer. `pending`: it took the charge and decides later (a rail that settles asynchronously, such
 * as an on-chain transfer awaiting confirmation); `retrieveCharge` on the same key gives the final answer.
 */
export type ChargeResult =
  | {
      status: "succeeded";
      chargeId: string;
      /** Where an on-chain rail's transfer landed (recorded on the PaymentIntent as `settlement`). */
      settlement?: Record<string, string | number>;
    }
  | { status: "declined"; chargeId: string; reason: string }
  | { status: "pending"; chargeId: string };

/** The charge attempt's INSERT, for chargeWithAttempt: one statement ($1.. its values), no WITH. */
export interface AttemptWrite {
  readonly statement: { readonly name: string; readonly text: string };
  readonly values: readonly unknown[];
  /**
   * It adopts a caller-chosen key's earlier attempt (RETURNING a row when it did, none when that attempt was charged
   * or is another method's): the charge is made only when it returned a row.
   */
  readonly adopts?: boolean;
}

export interface RefundRequest {
  /** Idempotency key of the refund. */
  key: string;
  chargeId: string;
  amount: number;
}

export interface Rail {
  readonly name: string;
  /**
   * One circuit breaker per (merchant, mode) instead of one for the rail. For a rail whose failures the
   * caller chooses (the test rail's pm_rail_unavailable): one tenant's failures say nothing about the rail
   * and must not make every tenant's calls fail fast. A real processor's outage is everyone's: one breaker.
   */
  readonly breakerPerMerchant?: boolean;
  /**
   * false: the money never passes through the service (an on-chain transfer straight to the merchant's own
   * wallet), so a capture is paid out in the same transaction and nothing can be refunded through the rail.
   */
  readonly custodial?: false;
  /** Whether this rail understands the payment method (else the request is a 400). */
  supportsPaymentMethod(paymentMethod: string): boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * Only on a rail whose charges have no effect outside this service's own database (its books are rows of it: the
   * test rail). The charge with the charge attempt's write (lib/payments/charge-attempts.ts) run first, in the same
   * statement or transaction of the rail's own connection: the attempt and the charge commit together, never one
   * without the other, in one round trip instead of two, and a charge refused before anything was written leaves no
   * attempt. A rail with any effect outside (a processor, a chain) must not have it: its attempt is committed on its
   * own before it is called, so that a crash after the call leaves the trace the recovery asks the rail about.
   * Null only for an attempt that `adopts` and did not: nothing was written or charged.
   */
  chargeWithAttempt?(request: ChargeRequest, attempt: AttemptWrite): Promise<ChargeResult | null>;
  /** The result of an earlier charge with this key (`pending` while undecided), or null if the rail never took it. */
  retrieveCharge(key: string): Promise<ChargeResult | null>;
  /** Idempotent on the key: a repeated key returns the refund made the first time, with ITS amount. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * Live disputes (docs/disputes.md, "Live mode"): the card network tells the rail's provider, whose signed webhook
   * (POST /v1/integrations/rail/disputes) is read here. Absent: the rail reports no disputes. A rail that is not
   * custodial (an on-chain transfer) never has one: nothing can reverse its payments.
   */
  readonly disputes?: RailDisputes;
}

/** What a rail's provider says of a dispute, in the service's words (each rail translates its provider's format). */
export interface RailDisputeNotice {
  /** The provider's event id: a redelivered notice is applied once. */
  id: string;
  /** `opened`: a dispute (or an inquiry) was filed; `closed`: the network decided it (`outcome`). */
  kind: "opened" | "closed";
  paymentIntentId: string;
  /** Opened: the network's reason (fraudulent, product_not_received, ...), and whether it is an inquiry. */
  reason?: string;
  inquiry?: boolean;
  /** Closed: who won. */
  outcome?: "won" | "lost";
}

export interface RailDisputes {
  /** The notice in a provider's webhook, its signature checked over the raw body; throws RailSignatureError if it fails. */
  readNotice(rawBody: string, headers: Headers): RailDisputeNotice;
}

/** A provider webhook whose signature did not verify (or no secret is configured): 401, nothing applied. */
export class RailSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RailSignatureError";
  }
}

export interface RefundResult {
  refundId: string;
  amount: number;
}

/**
 * The rail could not be reached or failed (not a decline): counts against the circuit breaker.
 * `notCharged` is true when the rail certainly did not take the charge (refused before processing);
 * false when the outcome is unknown (a time-out), so the key must be asked about again later.
 */
export class RailUnavailableError extends Error {
  constructor(
    message: string,
    readonly notCharged = false,
  ) {
    super(message);
    this.name = "RailUnavailableError";
  }
}
