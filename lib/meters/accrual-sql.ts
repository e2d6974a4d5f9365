// The SET fragment every accrual shares (usage records, committed reservations): the amount joins the
// meter's unbilled accrual, and the meter is flagged for the tick once the whole minor units accrued
// reach the threshold (or at all, on a closed meter). Only flagged meters are ever scanned by the tick.
import { Prisma } from "../generated/prisma/client";

/** `amount` is an SQL expression of the statement (e.g. `rec.amount_base`); the meter is aliased `m`. */
export function accrue(amount: string) {
  const value = Prisma.raw(amount);
  return Prisma.sql`accrued_base = m.accrued_base + ${value},
    used_base = m.used_base + ${value},
    settle_due_at = CASE WHEN m.status = 'closed' OR m.accrued_base + ${value} >= m.threshold_minor::bigint * m.base_units_per_minor
                         THEN coalesce(m.settle_due_at, now()) ELSE m.settle_due_at END,
    updated_at = now()`;
}
