// Small in-test doubles implementing the SDK's backend interfaces (the real service endpoints are tested
// end to end elsewhere). They keep a log of calls so tests can assert what was asked.
import type {
  MeteringBackend,
  PastDueRefusal,
  PaywallBackend,
  PaywallVerifyParams,
  ReservationParams,
  ReserveOutcome,
  UsageParams,
  PaywallReasonCode,
  VerifyOutcome,
} from "agent-payments-sdk";

export const PAY_ENDPOINT = "http://service.test/v1/paywall/pay";

/** Verifies against a table of "payments": id -> the terms it paid, or a forced reason code. */
export class FakePaywallBackend implements PaywallBackend {
  readonly payEndpoint = PAY_ENDPOINT;
  readonly calls: PaywallVerifyParams[] = [];
  private readonly payments = new Map<string, { terms?: Omit<PaywallVerifyParams, "paymentIntentId">; reasonCode?: PaywallReasonCode }>();

  pay(paymentIntentId: string, terms: Omit<PaywallVerifyParams, "paymentIntentId">) {
    this.payments.set(paymentIntentId, { terms });
    return paymentIntentId;
  }

  refuse(paymentIntentId: string, reasonCode: PaywallReasonCode) {
    this.payments.set(paymentIntentId, { reasonCode });
    return paymentIntentId;
  }

  async verify(params: PaywallVerifyParams): Promise<VerifyOutcome> {
    this.calls.push(params);
    const payment = this.payments.get(params.paymentIntentId);
    if (!payment) return { valid: false, reasonCode: "not_found" };
    if (payment.reasonCode) return { valid: false, reasonCode: payment.reasonCode };
    const t = payment.terms!;
    if (t.merchantId !== params.merchantId || t.sku !== params.sku) return { valid: false, reasonCode: "reference_mismatch" };
    if (t.currency.toUpperCase() !== params.currency.toUpperCase()) return { valid: false, reasonCode: "currency_mismatch" };
    if (t.amount < params.amount) return { valid: false, reasonCode: "insufficient_amount" };
    return { valid: true };
  }
}

export const RETRY_PAYMENT_URL = "http://service.test/v1/meters/retry-payment";

/**
 * A meter in memory: post-paid usage deduplicated by key; prepaid budget with holds. Meters named in
 * `pastDueMeters` refuse usage and reservations as past due; `pastDueChecks` counts pastDue() asks.
 */
export class FakeMeteringBackend implements MeteringBackend {
  readonly usage = new Map<string, UsageParams>();
  readonly log: string[] = [];
  readonly pastDueMeters = new Set<string>();
  pastDueChecks = 0;
  /** The minimum top-up the refusal names (like the service's details.topUp.minimumAmountMinor), when set. */
  minimumAmountMinor?: number;
  reservedBase = 0;
  committedBase = 0;
  /** The reservation keys reserve() was given, in order. */
  readonly reserveKeys: (string | undefined)[] = [];
  /** When set, reserve() answers this as is (a backend that reports a hold this call did not create, say). */
  forcedOutcome?: unknown;
  private nextId = 1;
  private readonly holds = new Map<string, number>();

  constructor(public budgetBase = 0) {}

  get accruedBase(): number {
    let total = 0;
    for (const u of this.usage.values()) total += u.quantity * u.unitPriceMinor;
    return total;
  }

  async pastDue(meterId: string): Promise<PastDueRefusal | null> {
    this.pastDueChecks++;
    return this.pastDueMeters.has(meterId) ? this.pastDueRefusal(meterId) : null;
  }

  private pastDueRefusal(meterId: string): PastDueRefusal {
    return { ok: false, reason: "meter_past_due", retryPaymentUrl: RETRY_PAYMENT_URL, details: { reason: "meter_past_due", meterId } };
  }

  async recordUsage(params: UsageParams): Promise<void | PastDueRefusal> {
    if (this.pastDueMeters.has(params.meterId)) {
      this.log.push("usage:refused");
      return this.pastDueRefusal(params.meterId);
    }
    this.log.push(`usage:${params.idempotencyKey}`);
    if (!this.usage.has(params.idempotencyKey)) this.usage.set(params.idempotencyKey, params);
  }

  async reserve({ meterId, quantity, unitPriceMinor, idempotencyKey }: ReservationParams): Promise<ReserveOutcome> {
    this.reserveKeys.push(idempotencyKey);
    if (this.forcedOutcome !== undefined) {
      this.log.push("reserve:forced");
      return this.forcedOutcome as ReserveOutcome;
    }
    if (this.pastDueMeters.has(meterId)) {
      this.log.push("reserve:past_due");
      return this.pastDueRefusal(meterId);
    }
    const amount = quantity * unitPriceMinor;
    if (this.committedBase + this.reservedBase + amount > this.budgetBase) {
      this.log.push("reserve:refused");
      const minimum = this.minimumAmountMinor;
      return {
        ok: false,
        reason: "insufficient_budget",
        details: { budgetBase: this.budgetBase },
        ...(minimum !== undefined ? { minimumAmountMinor: minimum } : {}),
      };
    }
    const id = `rsv_${this.nextId++}`;
    this.holds.set(id, amount);
    this.reservedBase += amount;
    this.log.push(`reserve:${id}`);
    return { ok: true, reservationId: id, created: true };
  }

  async commit({ reservationId }: { reservationId: string }): Promise<void> {
    const amount = this.take(reservationId);
    this.committedBase += amount;
    this.log.push(`commit:${reservationId}`);
  }

  async release({ reservationId }: { reservationId: string }): Promise<void> {
    this.take(reservationId);
    this.log.push(`release:${reservationId}`);
  }

  private take(id: string): number {
    const amount = this.holds.get(id);
    if (amount === undefined) throw new Error(`no open reservation ${id}`);
    this.holds.delete(id);
    this.reservedBase -= amount;
    return amount;
  }
}
