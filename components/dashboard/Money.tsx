// An amount in minor units, formatted for its currency ("$54.00"), with tabular digits for columns.
import { formatMoney } from "@/lib/dashboard/format";

export function Money({ amount, currency, className = "" }: { amount: number; currency: string; className?: string }) {
  return <span className={`tabular-nums ${className}`}>{formatMoney(amount, currency)}</span>;
}
