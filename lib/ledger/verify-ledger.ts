// The ledger's invariants, checked against the whole database (or one merchant): used by the property
// and concurrency tests, and usable by an operator as an audit. Returns the violations found (none: []).
import type { Db } from "../db";

export async function verifyLedger(db: Db, merchantIds?: string[]): Promise<string[]> {
  const problems: string[] = [];
  const merchants = merchantIds ?? (await db.merchant.findMany({ select: { id: true } })).map((m) => m.id);

  // 1. Every posting sums to zero per currency, within one merchant and mode.
  const unbalanced = await db.$queryRaw<{ posting_id: string }[]>`
    SELECT posting_id FROM ledger_entries WHERE merchant_id = ANY(${merchants})
     GROUP BY posting_id, currency HAVING sum(amount) <> 0
    UNION
    SELECT posting_id FROM ledger_entries WHERE merchant_id = ANY(${merchants})
     GROUP BY posting_id HAVING count(DISTINCT (merchant_id, livemode)) > 1`;
  for (const row of unbalanced) problems.push(`posting ${row.posting_id} is unbalanced`);

  // 2. Every PaymentIntent's amounts equal its ledger entries, and its order agrees with it.
  const rows = await db.$queryRaw<
    {
      id: string;
      status: string;
      amount: number;
      amount_captured: number;
      amount_refunded: number;
      settled_at: Date | null;
      order_status: string | null;
      order_refunded: number | null;
      captured: bigint;
      refunded: bigint;
      pending: bigint;
      payable: bigint;
      paid_out: bigint;
      refund_rows: bigint;
      dispute_out: bigint;
      disputed: bigint;
      dispute_fees: bigint;
      dispute_lost: bigint;
      dispute_status: string | null;
      dispute_amount: number | null;
      dispute_fee: number | null;
    }[]
  >`
    SELECT pi.id, pi.status, pi.amount, pi.amount_captured, pi.amount_refunded, pi.settled_at,
           o.status AS order_status, o.amount_refunded AS order_refunded,
           coalesce((SELECT -sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.kind = 'capture' AND e.account = 'payer'), 0)::bigint AS captured,
           coalesce((SELECT sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.kind = 'refund' AND e.account = 'payer'), 0)::bigint AS refunded,
           coalesce((SELECT sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.account = 'merchant_pending'), 0)::bigint AS pending,
           coalesce((SELECT sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.account = 'merchant_payable'), 0)::bigint AS payable,
           coalesce((SELECT sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.account = 'merchant_paid_out'), 0)::bigint AS paid_out,
           coalesce((SELECT sum(amount) FROM refunds r WHERE r.payment_intent_id = pi.id), 0)::bigint AS refund_rows,
           coalesce((SELECT -sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.kind IN ('dispute', 'dispute_won')
                       AND e.account IN ('merchant_pending', 'merchant_payable', 'merchant_paid_out')), 0)::bigint AS dispute_out,
           coalesce((SELECT sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.account = 'disputed'), 0)::bigint AS disputed,
           coalesce((SELECT sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.account = 'dispute_fees'), 0)::bigint AS dispute_fees,
           coalesce((SELECT sum(amount) FROM ledger_entries e WHERE e.payment_intent_id = pi.id AND e.kind = 'dispute_lost' AND e.account = 'payer'), 0)::bigint AS dispute_lost,
           d.status AS dispute_status, d.amount AS dispute_amount, d.fee AS dispute_fee
      FROM payment_intents pi LEFT JOIN orders o ON o.payment_intent_id = pi.id LEFT JOIN disputes d ON d.payment_intent_id = pi.id
     WHERE pi.merchant_id = ANY(${merchants})`;
  for (const r of rows) {
    const say = (what: string) => problems.push(`${r.id} (${r.status}): ${what}`);
    const [captured, refunded, pending, payable, paidOut] = [r.captured, r.refunded, r.pending, r.payable, r.paid_out].map(Number);
    if (r.amount_captured !== captured) say(`amountCaptured ${r.amount_captured} but the ledger captured ${captured}`);
    if (r.amount_refunded !== refunded) say(`amountRefunded ${r.amount_refunded} but the ledger refunded ${refunded}`);
    if (Number(r.refund_rows) !== refunded) say(`refund objects sum to ${r.refund_rows} but the ledger refunded ${refunded}`);
    if (r.amount_refunded > r.amount_captured) say(`refunded ${r.amount_refunded} more than captured ${r.amount_captured}`);
    // What a dispute took from the merchant (amount and fee while open, the fee and the amount once lost, nothing once won).
    const disputeOut = Number(r.dispute_out);
    if (pending + payable + paidOut !== captured - refunded - disputeOut)
      say(`merchant holds ${pending + payable + paidOut}, expected ${captured - refunded - disputeOut}`);
    if (paidOut !== 0 && payable !== 0) say(`both paid out ${paidOut} (non-custodial) and payable ${payable}`);
    if (r.settled_at === null && payable !== 0) say(`unsettled but payable ${payable}`);
    if (r.settled_at !== null && pending !== 0) say(`settled but pending ${pending}`);
    if (pending < 0 || payable + disputeOut < 0 || paidOut < 0) say(`negative merchant account (pending ${pending}, payable ${payable})`);
    for (const problem of disputeProblems(r, disputeOut)) say(problem);
    const expectCaptured = ["captured", "settled", "refunded"].includes(r.status);
    if (expectCaptured !== (r.amount_captured === r.amount)) say(`status vs amountCaptured ${r.amount_captured}/${r.amount}`);
    if (r.status === "refunded" && r.amount_refunded !== r.amount_captured) say("refunded but not fully");
    if (r.status !== "refunded" && expectCaptured && r.amount_refunded === r.amount_captured) say("fully refunded but not refunded");
    if (r.order_refunded !== null && r.order_refunded !== r.amount_refunded) say(`order refunded ${r.order_refunded}`);
    const expectedOrder: Record<string, string[]> = {
      requires_payment: ["pending"],
      processing: ["pending"],
      captured: r.amount_refunded > 0 ? ["partially_refunded"] : ["paid"],
      settled: r.amount_refunded > 0 ? ["partially_refunded"] : ["paid"],
      refunded: ["refunded"],
      failed: ["canceled"],
      expired: ["canceled"],
      canceled: ["canceled"],
    };
    if (r.order_status !== null && !expectedOrder[r.status]?.includes(r.order_status)) say(`order status ${r.order_status}`);
  }

  // 3. The running balances (totals plus deltas not folded yet, balances.ts) equal the sum of the entries, per key.
  const drifted = await db.$queryRaw<
    { merchant_id: string; livemode: boolean; account: string; currency: string; entries: bigint | null; running: bigint | null }[]
  >`
    WITH entries AS (
      SELECT merchant_id, livemode, account, currency, sum(amount)::bigint AS total FROM ledger_entries
       WHERE merchant_id = ANY(${merchants}) GROUP BY merchant_id, livemode, account, currency
    ), running AS (
      SELECT merchant_id, livemode, account, currency, sum(amount)::bigint AS total FROM (
        SELECT merchant_id, livemode, account, currency, amount FROM ledger_balances WHERE merchant_id = ANY(${merchants})
        UNION ALL
        SELECT merchant_id, livemode, account, currency, amount FROM ledger_balance_deltas WHERE merchant_id = ANY(${merchants})
      ) parts GROUP BY merchant_id, livemode, account, currency
    )
    SELECT merchant_id, livemode, account, currency, e.total AS entries, r.total AS running
      FROM entries e FULL JOIN running r USING (merchant_id, livemode, account, currency)
     WHERE e.total IS DISTINCT FROM r.total AND NOT (e.total IS NULL AND r.total = 0)`;
  for (const d of drifted)
    problems.push(
      `running balance of ${d.merchant_id} (${d.livemode ? "live" : "test"}) ${d.account} ${d.currency} is ${d.running ?? 0}, the entries sum to ${d.entries ?? 0}`,
    );

  // 4. The balance equals the sum of what each PaymentIntent holds (no entries without a PaymentIntent).
  const orphans = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM ledger_entries e WHERE e.merchant_id = ANY(${merchants})
       AND NOT EXISTS (SELECT 1 FROM payment_intents pi WHERE pi.id = e.payment_intent_id
                         AND pi.merchant_id = e.merchant_id AND pi.livemode = e.livemode)`;
  if (Number(orphans[0].n) > 0) problems.push(`${orphans[0].n} ledger entries belong to no PaymentIntent of their merchant and mode`);
  return problems;
}

/** A PaymentIntent's dispute against its ledger entries (docs/disputes.md): what each status holds, and no more than was left. */
function disputeProblems(
  r: {
    dispute_status: string | null;
    dispute_amount: number | null;
    dispute_fee: number | null;
    amount_captured: number;
    amount_refunded: number;
  } & {
    disputed: bigint;
    dispute_fees: bigint;
    dispute_lost: bigint;
  },
  disputeOut: number,
): string[] {
  const [held, fees, lost] = [r.disputed, r.dispute_fees, r.dispute_lost].map(Number);
  const amount = r.dispute_amount ?? 0;
  const fee = r.dispute_fee ?? 0;
  const expected: Record<string, [number, number, number]> = {
    needs_response: [amount, fee, 0],
    under_review: [amount, fee, 0],
    lost: [0, fee, amount],
  };
  const [wantHeld, wantFees, wantLost] = expected[r.dispute_status ?? ""] ?? [0, 0, 0];
  const problems: string[] = [];
  if (held !== wantHeld || fees !== wantFees || lost !== wantLost)
    problems.push(`dispute ${r.dispute_status ?? "(none)"} but the ledger holds ${held}, fees ${fees}, lost ${lost}`);
  if (disputeOut !== held + fees + lost)
    problems.push(`disputes took ${disputeOut} from the merchant, the dispute accounts ${held + fees + lost}`);
  if (wantHeld + wantLost > 0 && r.amount_refunded + amount > r.amount_captured)
    problems.push(`refunded ${r.amount_refunded} and disputed ${amount}, more than captured ${r.amount_captured}`);
  return problems;
}
