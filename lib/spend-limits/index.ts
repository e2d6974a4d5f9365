// A reusable spend counter: "at most `limit` (minor units of `currency`) per counter key and period", decided by
// the database so concurrent charges in any number of processes never pass it. Call reserveSpend inside the
// charge's own transaction, before the capture: one INSERT ... ON CONFLICT DO UPDATE ... WHERE spent + amount <=
// limit takes the counter's row lock until that transaction ends, so a rollback (a refusal, a crash) releases the
// reservation and a commit keeps it. A charge that commits without moving money (a decline) gives it back with
// releaseSpend in the same transaction. The key names what is counted (an AP2 open mandate, a spending agent's
// budget, ...); periods are UTC calendar windows (or none: one lifetime window).
import { sqlIn, statement, type Db } from "../db";

export type SpendWindow = "none" | "day" | "week" | "month" | "quarter" | "year";

export interface SpendReservation {
  /** What is counted, e.g. `ap2:open_mandate:<hash>` or `spending_agent:sag_...:day`. */
  counterKey: string;
  /** The start of the window (periodStartOf); the same key in another window counts from zero. */
  periodStart: Date;
  currency: string;
  /** Minor units, > 0. */
  amount: number;
  /** The most `spent` may reach in this window, minor units. */
  limit: number;
  /** The most charges this window may count (the charge counted included); absent: no limit on their number. */
  maxUses?: number;
}

export type SpendResult =
  | { ok: true; spent: number; uses: number }
  | { ok: false; reason: "limit_exceeded" | "uses_exceeded"; spent: number; uses: number; limit: number };

const EPOCH = new Date(0);

/** The UTC start of the window holding `at` (weeks start on Monday, as ISO 8601 has them). */
export function periodStartOf(window: SpendWindow, at: Date = new Date()): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  switch (window) {
    case "none":
      return EPOCH;
    case "day":
      return new Date(Date.UTC(y, m, d));
    case "week":
      return new Date(Date.UTC(y, m, d - ((at.getUTCDay() + 6) % 7)));
    case "month":
      return new Date(Date.UTC(y, m, 1));
    case "quarter":
      return new Date(Date.UTC(y, m - (m % 3), 1));
    case "year":
      return new Date(Date.UTC(y, 0, 1));
  }
}

// Prepared statements: they run inside a charge's transaction, a plain pg one too (pgTransaction, lib/db.ts). The
// counter's key is ($1 counter, $2 period start, $3 currency).
const RESERVE = statement(
  "spend_reserve",
  `INSERT INTO spend_counters AS c (counter_key, period_start, currency, spent, uses, updated_at)
   VALUES ($1, $2, $3, $4, 1, now())
   ON CONFLICT (counter_key, period_start, currency) DO UPDATE
      SET spent = c.spent + EXCLUDED.spent, uses = c.uses + 1, updated_at = now()
    WHERE c.spent + EXCLUDED.spent <= $5 AND c.uses + 1 <= $6
   RETURNING spent, uses`,
);
const RELEASE = statement(
  "spend_release",
  `UPDATE spend_counters SET spent = GREATEST(spent - $4, 0), uses = GREATEST(uses - 1, 0), updated_at = now()
    WHERE counter_key = $1 AND period_start = $2 AND currency = $3`,
);
const READ = statement(
  "spend_read",
  "SELECT spent, uses FROM spend_counters WHERE counter_key = $1 AND period_start = $2 AND currency = $3",
);

/** Adds `amount` to the window's counter if it stays within `limit` (and `maxUses`); otherwise changes nothing. */
export async function reserveSpend(tx: Db, r: SpendReservation): Promise<SpendResult> {
  if (!Number.isSafeInteger(r.amount) || r.amount <= 0) throw new RangeError("reserveSpend: amount must be a positive integer.");
  const maxUses = r.maxUses ?? 2_147_483_647;
  if (r.amount > r.limit || maxUses < 1) {
    const now = await readSpend(tx, r);
    return { ok: false, reason: r.amount > r.limit ? "limit_exceeded" : "uses_exceeded", ...now, limit: r.limit };
  }
  const rows = await sqlIn(tx).rows<{ spent: string; uses: number }>(RESERVE, [
    r.counterKey,
    r.periodStart,
    r.currency,
    r.amount,
    r.limit,
    maxUses,
  ]);
  if (rows.length === 1) return { ok: true, spent: Number(rows[0].spent), uses: rows[0].uses };
  const now = await readSpend(tx, r);
  return { ok: false, reason: now.spent + r.amount > r.limit ? "limit_exceeded" : "uses_exceeded", ...now, limit: r.limit };
}

/** Gives back a reservation whose charge did not move money but whose transaction commits (a decline). */
export async function releaseSpend(tx: Db, r: Pick<SpendReservation, "counterKey" | "periodStart" | "currency" | "amount">): Promise<void> {
  await sqlIn(tx).count(RELEASE, [r.counterKey, r.periodStart, r.currency, r.amount]);
}

/** What the window has counted so far (zero when nothing was). */
export async function readSpend(
  db: Db,
  r: Pick<SpendReservation, "counterKey" | "periodStart" | "currency">,
): Promise<{ spent: number; uses: number }> {
  const rows = await sqlIn(db).rows<{ spent: string; uses: number }>(READ, [r.counterKey, r.periodStart, r.currency]);
  return rows.length ? { spent: Number(rows[0].spent), uses: rows[0].uses } : { spent: 0, uses: 0 };
}
