// The SET fragment of a post-paid accrual (a usage record): the amount joins the
// meter's unbilled accrual, and the meter is flagged for the tick once the whole minor units accrued
// reach the threshold (or at all, on a closed meter). Only flagged meters are ever scanned by the tick.

/** `amount` is an SQL expression of the statement (e.g. `r.amount_base`); the meter is aliased `m`. */
export function accrueSet(amount: string): string {
  return `accrued_base = m.accrued_base + ${amount},
    used_base = m.used_base + ${amount},
    settle_due_at = CASE WHEN m.status = 'closed' OR m.accrued_base + ${amount} >= m.threshold_minor::bigint * m.base_units_per_minor
                         THEN coalesce(m.settle_due_at, now()) ELSE m.settle_due_at END,
    updated_at = now()`;
}
