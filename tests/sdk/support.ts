// Small in-test doubles implementing the SDK's backend interfaces (the real service endpoints are tested
// end to end elsewhere). They keep a log of calls so tests can assert what was asked.
import type { MeteringBackend, PaywallBackend, PaywallVerifyParams, ReserveOutcome, UsageParams, VerifyOutcome } from "../../lib/sdk";
import type { PaywallReasonCode } from "../../lib/sdk/types";

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

/** A meter in memory: post-paid usage deduplicated by key; prepaid budget with holds. */
export class FakeMeteringBackend implements MeteringBackend {
  readonly usage = new Map<string, UsageParams>();
  readonly log: string[] = [];
  reservedBase = 0;
  committedBase = 0;
  private nextId = 1;
  private readonly holds = new Map<string, number>();

  constructor(public budgetBase = 0) {}

  get accruedBase(): number {
    let total = 0;
    for (const u of this.usage.values()) total += u.quantity * u.unitPriceMinor;
    return total;
  }

  async recordUsage(params: UsageParams): Promise<void> {
    this.log.push(`usage:${params.idempotencyKey}`);
    if (!this.usage.has(params.idempotencyKey)) this.usage.set(params.idempotencyKey, params);
  }

  async reserve({ quantity, unitPriceMinor }: { quantity: number; unitPriceMinor: number }): Promise<ReserveOutcome> {
    const amount = quantity * unitPriceMinor;
    if (this.committedBase + this.reservedBase + amount > this.budgetBase) {
      this.log.push("reserve:refused");
      return { ok: false, reason: "insufficient_budget", details: { budgetBase: this.budgetBase } };
    }
    const id = `rsv_${this.nextId++}`;
    this.holds.set(id, amount);
    this.reservedBase += amount;
    this.log.push(`reserve:${id}`);
    return { ok: true, reservationId: id };
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
