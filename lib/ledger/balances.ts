// Running balances (docs/payments.md, "Balances"): a merchant's balance without summing its history. Each ledger
// insert also writes its net amount per (merchant, mode, account, currency) as a delta row (a statement trigger on
// ledger_entries, in the posting's own statement: nothing to forget, no extra round trip, and an insert, so
// concurrent postings of one merchant never wait on a shared row). The tick folds the deltas into one total per key,
// and one per key and UTC day (the dashboard's volume chart), one folder at a time: each delta moved exactly once,
// in one transaction, so a reader's statement sees it either as a delta or inside the totals, never both or neither.
import type { Db } from "../db";

/** Deltas folded per call at most (the tick calls again next time). */
const FOLD_BATCH = 50_000;

/** The balances of a merchant's mode for the given accounts: the totals plus the deltas not folded yet. */
export async function readBalances(db: Db, scope: { merchantId: string; livemode: boolean }, accounts: string[]) {
  return db.$queryRaw<{ account: string; currency: string; amount: bigint }[]>`
    SELECT account, currency, sum(amount)::bigint AS amount FROM (
      SELECT account, currency, amount FROM ledger_balances
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND account = ANY(${accounts})
      UNION ALL
      SELECT account, currency, amount FROM ledger_balance_deltas
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND account = ANY(${accounts})
    ) parts GROUP BY account, currency ORDER BY currency, account`;
}

/**
 * The tick's fold: up to FOLD_BATCH deltas moved into the totals in one statement (deleted and added together).
 * One folder at a time (a try-lock: another process folding now makes this one skip), so totals rows are only ever
 * updated here, by one transaction. Returns the deltas folded.
 */
export async function foldBalanceDeltas(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ folded: number | null }[]>`
    WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtextextended('ledger_balances_fold', 0)) AS held),
    moved AS (
      DELETE FROM ledger_balance_deltas
       WHERE id IN (SELECT id FROM ledger_balance_deltas WHERE (SELECT held FROM lock) ORDER BY id LIMIT ${FOLD_BATCH})
      RETURNING merchant_id, livemode, account, currency, day, amount
    ),
    by_day AS (
      SELECT merchant_id, livemode, account, currency, day, sum(amount)::bigint AS amount, count(*) AS deltas FROM moved
       GROUP BY merchant_id, livemode, account, currency, day
    ),
    days AS (
      INSERT INTO ledger_daily AS d (merchant_id, livemode, account, currency, day, amount)
      SELECT merchant_id, livemode, account, currency, day, amount FROM by_day ORDER BY merchant_id, livemode, account, day, currency
      ON CONFLICT (merchant_id, livemode, account, day, currency) DO UPDATE SET amount = d.amount + excluded.amount
    ),
    totals AS (
      INSERT INTO ledger_balances AS b (merchant_id, livemode, account, currency, amount)
      SELECT merchant_id, livemode, account, currency, sum(amount) FROM by_day
       GROUP BY merchant_id, livemode, account, currency ORDER BY merchant_id, livemode, account, currency
      ON CONFLICT (merchant_id, livemode, account, currency)
      DO UPDATE SET amount = b.amount + excluded.amount, updated_at = now()
    )
    SELECT sum(deltas)::int AS folded FROM by_day`;
  return row?.folded ?? 0;
}

/** An account's net amount per UTC day since `since` (a date), per currency: the daily totals plus the deltas not folded yet. */
export async function readDailyAmounts(db: Db, scope: { merchantId: string; livemode: boolean }, account: string, since: Date) {
  return db.$queryRaw<{ day: string; currency: string; amount: bigint }[]>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, sum(amount)::bigint AS amount FROM (
      SELECT day, currency, amount FROM ledger_daily
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND account = ${account} AND day >= ${since}::date
      UNION ALL
      SELECT day, currency, amount FROM ledger_balance_deltas
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND account = ${account} AND day >= ${since}::date
    ) parts GROUP BY day, currency`;
}
