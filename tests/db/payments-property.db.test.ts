// Property test: random sequences of open / capture / refund / cancel / expire / settle (and refund races)
// across merchants, run through the real domain functions on real Postgres with the test rail. After every
// sequence the ledger is balanced, nothing is refunded past its capture, every object's amounts equal the
// ledger (lib/ledger/verify-ledger.ts), the rail charged each PaymentIntent at most once, and the model's
// own count of refunded money matches.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cancelCheckout } from "../../lib/checkouts/cancel-checkout";
import { captureCheckout } from "../../lib/checkouts/capture-checkout";
import { expireOverdueCheckouts } from "../../lib/checkouts/expire-checkouts";
import { openCheckout } from "../../lib/checkouts/open-checkout";
import { customerCreation } from "../../lib/customers/create-customer";
import { getDb, runAsCaller, sql, transaction, type Db } from "../../lib/db";
import { DomainError } from "../../lib/errors";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { settleDuePaymentIntents } from "../../lib/payments/settle-payment-intents";
import { createRefund } from "../../lib/refunds/create-refund";
import type { Scope } from "../../lib/scope";
import { createTestMerchant } from "../helpers/merchants";

type Op =
  | { kind: "open"; merchant: number; amount: number }
  | { kind: "capture"; target: number; method: number }
  | { kind: "refund"; target: number; amount: number | null; byOrder: boolean }
  | { kind: "refundRace"; target: number; amount: number }
  | { kind: "cancel"; target: number }
  | { kind: "expire"; target: number }
  | { kind: "settle"; target: number };

const METHODS = ["pm_card_visa", "pm_card_mastercard", "pm_card_chargeDeclined", "pm_card_chargeDeclinedInsufficientFunds", "wallet"];
const EXPECTED_CODES = new Set(["CONFLICT", "VALIDATION_ERROR", "PAYMENT_DECLINED"]);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("open" as const), merchant: fc.nat(1), amount: fc.integer({ min: 1, max: 5000 }) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("capture" as const), target: fc.nat(5), method: fc.nat(METHODS.length - 1) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("refund" as const),
      target: fc.nat(5),
      amount: fc.option(fc.integer({ min: 1, max: 3000 })),
      byOrder: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("refundRace" as const), target: fc.nat(5), amount: fc.integer({ min: 1, max: 2000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), target: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), target: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("settle" as const), target: fc.nat(5) }) },
);

/** Like the api() wrapper: one transaction; a commitsState error commits and is the result. */
async function run<T>(work: (tx: Db) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  try {
    const result = await transaction(async (tx) => {
      try {
        return { ok: true as const, value: await work(tx) };
      } catch (err) {
        if (err instanceof DomainError && err.commitsState) return { ok: false as const, code: err.code };
        throw err;
      }
    });
    return result;
  } catch (err) {
    if (err instanceof DomainError && EXPECTED_CODES.has(err.code)) return { ok: false, code: err.code };
    throw err;
  }
}

interface Opened {
  scope: Scope;
  id: string;
  paymentIntentId: string;
  orderId: string;
  wallet: string;
}

const FAR_FUTURE = () => new Date(Date.now() + 10 * 24 * 3600 * 1000);

describe("payments property", () => {
  it("any sequence keeps the ledger balanced, refunds within captures, and objects equal to the ledger", { timeout: 240_000 }, async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 3, maxLength: 12 }), async (ops) => {
        runs += 1;
        const merchants = await Promise.all([createTestMerchant("P1"), createTestMerchant("P2")]);
        const scopes = merchants.map((m) => ({ merchantId: m.merchantId, livemode: false }));
        const wallets = await Promise.all(
          scopes.map(async (scope) => {
            const creation = customerCreation({});
            await runAsCaller(sql(), creation.query, { apiKeyId: null, ...scope });
            const customer = creation.answer(false) as { id: string };
            await getDb().$executeRaw`INSERT INTO test_wallets (customer_id, currency, balance) VALUES (${customer.id}, 'USD', 6000)`;
            return customer.id;
          }),
        );
        const opened: Opened[] = [];
        const refundedByModel = new Map<string, number>();
        // Mostly the newest few checkouts, so that sequences often chain capture, settle and refunds on one.
        const pick = (target: number) => (opened.length ? opened[opened.length - 1 - (target % Math.min(opened.length, 3))] : null);
        const noteRefund = (pi: string, amount: number) => refundedByModel.set(pi, (refundedByModel.get(pi) ?? 0) + amount);

        for (const op of ops) {
          if (op.kind === "open") {
            const scope = scopes[op.merchant];
            const c = await transaction((tx) => openCheckout(tx, scope, { amount: op.amount, currency: "USD" }, { source: "api" }));
            opened.push({ scope, id: c.id, paymentIntentId: c.paymentIntentId, orderId: c.orderId, wallet: wallets[op.merchant] });
            continue;
          }
          const target = pick(op.target);
          if (!target) continue;
          if (op.kind === "capture") {
            const method = METHODS[op.method] === "wallet" ? target.wallet : METHODS[op.method];
            await run((tx) => captureCheckout(tx, target.scope, target.id, { paymentMethod: method }));
          } else if (op.kind === "refund") {
            const body = op.byOrder ? { orderId: target.orderId } : { paymentIntentId: target.paymentIntentId };
            const r = await run((tx) => createRefund(tx, target.scope, { ...body, amount: op.amount ?? undefined }));
            if (r.ok) noteRefund(target.paymentIntentId, r.value.amount);
          } else if (op.kind === "refundRace") {
            const results = await Promise.all(
              [0, 1, 2].map(() =>
                run((tx) => createRefund(tx, target.scope, { paymentIntentId: target.paymentIntentId, amount: op.amount })),
              ),
            );
            for (const r of results) if (r.ok) noteRefund(target.paymentIntentId, r.value.amount);
          } else if (op.kind === "cancel") {
            await run((tx) => cancelCheckout(tx, target.scope, target.id));
          } else if (op.kind === "expire") {
            await expireOverdueCheckouts(getDb(), { checkoutIds: [target.id], now: FAR_FUTURE() });
          } else {
            await settleDuePaymentIntents(getDb(), { paymentIntentIds: [target.paymentIntentId], now: FAR_FUTURE() });
          }
        }

        const ids = scopes.map((s) => s.merchantId);
        expect(await verifyLedger(getDb(), ids)).toEqual([]);
        const pis = await getDb().paymentIntent.findMany({ where: { merchantId: { in: ids } } });
        for (const pi of pis) {
          expect(pi.amountRefunded).toBe(refundedByModel.get(pi.id) ?? 0);
          expect(pi.amountRefunded).toBeLessThanOrEqual(pi.amountCaptured);
        }
        const charges = await getDb().$queryRaw<{ payment_intent_id: string; n: bigint }[]>`
          SELECT a.payment_intent_id, count(*) AS n FROM payment_attempts a JOIN test_rail_charges c ON c.charge_key = a.charge_key
           WHERE c.status = 'succeeded' AND a.payment_intent_id = ANY(${pis.map((p) => p.id)}) GROUP BY a.payment_intent_id`;
        for (const row of charges) expect(Number(row.n)).toBe(1);
        // The balance endpoint's numbers are the ledger's: pending + payable = captured - refunded, per merchant.
        for (const scope of scopes) {
          const sums = await getDb().$queryRaw<{ held: bigint | null }[]>`
            SELECT sum(amount) AS held FROM ledger_entries WHERE merchant_id = ${scope.merchantId} AND account <> 'payer'`;
          const expected = pis
            .filter((p) => p.merchantId === scope.merchantId)
            .reduce((s, p) => s + p.amountCaptured - p.amountRefunded, 0);
          expect(Number(sums[0].held ?? 0)).toBe(expected);
        }
      }),
      { numRuns: 200 },
    );
    expect(runs).toBeGreaterThanOrEqual(200);
  });
});
