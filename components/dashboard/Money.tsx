// An amount in minor units, formatted for its currency ("$54.00"), with tabular digits for columns.
import { formatMoney } from "@/lib/dashboard/format";
import type { Column } from "./DataTable";

export function Money({ amount, currency, className = "" }: { amount: number; currency: string; className?: string }) {
  return <span className={`tabular-nums ${className}`}>{formatMoney(amount, currency)}</span>;
}

/** The "Amount" column of a list of payments, orders or checkouts. */
export function amountColumn<T extends { amount: number; currency: string }>(): Column<T> {
  return { header: "Amount", cell: (row) => <Money amount={row.amount} currency={row.currency} className="font-medium text-slate-900" /> };
}
