// The only way money moves: a balanced double-entry posting. Each leg credits (+) or debits (-) one
// account of one merchant and mode; the legs sum to zero. Checked here, and again by the database at
// commit (deferred constraint trigger `ledger_posting_balanced`), so no code path can book half a move.
//
// Accounts: `payer` (the outside world: the payer's payment method), `merchant_pending` (captured, not
// yet settled), `merchant_payable` (settled, owed to the merchant), `merchant_paid_out` (already in the merchant's
// own hands: a non-custodial payment, e.g. live x402 paid on chain straight to its wallet).
import { sqlIn, statement, type Db, type PlannedWrite } from "../db";
import { InvariantViolation } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";

export type LedgerAccount = "payer" | "merchant_pending" | "merchant_payable" | "merchant_paid_out" | DisputeLedgerAccount;
export type PostingKind = "capture" | "settlement" | "refund" | "payout" | DisputePostingKind;

export interface Posting {
  kind: PostingKind;
  scope: Scope;
  currency: string;
  paymentIntentId: string;
  refundId?: string;
  legs: { account: LedgerAccount; amount: number }[];
}

const INSERT_LEGS = statement(
  "ledger_post",
  `INSERT INTO ledger_entries (posting_id, kind, merchant_id, livemode, account, currency, amount, payment_intent_id, refund_id)
   SELECT $1, $2, $3, $4, leg.account, $5, leg.amount, $6, $7 FROM unnest($8::text[], $9::int[]) AS leg(account, amount)`,
);

export async function post(tx: Db, posting: Posting): Promise<string> {
  const { id, writes } = plannedPosting(posting);
  for (const write of writes) await sqlIn(tx).count(write.statement, [...write.values]);
  return id;
}

/**
 * The same posting, checked now and planned to be written later in the transaction (lib/db.ts deferWrites): its
 * id, and its one write (none when every leg is zero).
 */
export function plannedPosting(posting: Posting): { id: string; writes: PlannedWrite[] } {
  const legs = posting.legs.filter((leg) => leg.amount !== 0);
  if (legs.some((leg) => !Number.isSafeInteger(leg.amount))) throw new InvariantViolation("Ledger amounts must be integers.");
  if (legs.reduce((sum, leg) => sum + leg.amount, 0) !== 0) throw new InvariantViolation(`Unbalanced ${posting.kind} posting.`);
  const id = createId("ledgerPosting");
  if (legs.length === 0) return { id, writes: [] };
  const { scope } = posting;
  const values = [
    id,
    posting.kind,
    scope.merchantId,
    scope.livemode,
    posting.currency,
    posting.paymentIntentId,
    posting.refundId ?? null,
    legs.map((leg) => leg.account),
    legs.map((leg) => leg.amount),
  ];
  return { id, writes: [{ statement: INSERT_LEGS, values }] };
}

/** Capture: the payer pays the merchant; the funds are pending until settlement. */
export function postCapture(tx: Db, scope: Scope, paymentIntentId: string, currency: string, amount: number) {
  return post(tx, capturePosting(scope, paymentIntentId, currency, amount));
}

export function capturePosting(scope: Scope, paymentIntentId: string, currency: string, amount: number): Posting {
  return {
    kind: "capture",
    scope,
    currency,
    paymentIntentId,
    legs: [
      { account: "payer", amount: -amount },
      { account: "merchant_pending", amount },
    ],
  };
}

/** Settlement: pending funds become payable. */
export function postSettlement(tx: Db, scope: Scope, paymentIntentId: string, currency: string, amount: number) {
  return post(tx, {
    kind: "settlement",
    scope,
    currency,
    paymentIntentId,
    legs: [
      { account: "merchant_pending", amount: -amount },
      { account: "merchant_payable", amount },
    ],
  });
}

/** Payout: pending funds that are already the merchant's (paid to its own wallet by the payer), never payable here. */
export function payoutPosting(scope: Scope, paymentIntentId: string, currency: string, amount: number): Posting {
  return {
    kind: "payout",
    scope,
    currency,
    paymentIntentId,
    legs: [
      { account: "merchant_pending", amount: -amount },
      { account: "merchant_paid_out", amount },
    ],
  };
}

/** Refund: the merchant pays the payer back, from pending before settlement, from payable after. */
export function postRefund(
  tx: Db,
  scope: Scope,
  paymentIntentId: string,
  refundId: string,
  currency: string,
  amount: number,
  settled: boolean,
) {
  return post(tx, {
    kind: "refund",
    scope,
    currency,
    paymentIntentId,
    refundId,
    legs: [
      { account: settled ? "merchant_payable" : "merchant_pending", amount: -amount },
      { account: "payer", amount },
    ],
  });
}

// Disputes (lib/disputes, docs/disputes.md). Two accounts beyond the four above, known to the database's CHECK
// (migration 20261201000000_disputes): `disputed` (what the card network holds back from the merchant while a
// dispute is open) and `dispute_fees` (the fee a dispute costs). A dispute opens only against settled funds, so
// its money always leaves and comes back through merchant_payable.
export type DisputeLedgerAccount = "disputed" | "dispute_fees";
export type DisputePostingKind = "dispute" | "dispute_won" | "dispute_lost";

function postDisputeLegs(
  tx: Db,
  kind: DisputePostingKind,
  scope: Scope,
  paymentIntentId: string,
  currency: string,
  legs: { account: LedgerAccount; amount: number }[],
) {
  return post(tx, { kind, scope, currency, paymentIntentId, legs });
}

/** A dispute opened: the disputed amount and the fee leave the merchant's payable funds. */
export function postDisputeOpened(tx: Db, scope: Scope, paymentIntentId: string, currency: string, amount: number, fee: number) {
  return postDisputeLegs(tx, "dispute", scope, paymentIntentId, currency, [
    { account: "merchant_payable", amount: -(amount + fee) },
    { account: "disputed", amount },
    { account: "dispute_fees", amount: fee },
  ]);
}

/** A dispute won: the amount and the fee come back to the merchant's payable funds. */
export function postDisputeWon(tx: Db, scope: Scope, paymentIntentId: string, currency: string, amount: number, fee: number) {
  return postDisputeLegs(tx, "dispute_won", scope, paymentIntentId, currency, [
    { account: "disputed", amount: -amount },
    { account: "dispute_fees", amount: -fee },
    { account: "merchant_payable", amount: amount + fee },
  ]);
}

/** A dispute lost: the held amount goes back to the payer for good (the fee stays spent). */
export function postDisputeLost(tx: Db, scope: Scope, paymentIntentId: string, currency: string, amount: number) {
  return postDisputeLegs(tx, "dispute_lost", scope, paymentIntentId, currency, [
    { account: "disputed", amount: -amount },
    { account: "payer", amount },
  ]);
}
