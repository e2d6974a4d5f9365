// A status as a coloured pill with its words ("partially_refunded" -> "Partially refunded").
import { statusLabel } from "@/lib/dashboard/format";
import { ownValue } from "@/lib/own-key";
import type { Column } from "./DataTable";

const TONE: Record<string, string> = {
  paid: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  succeeded: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  captured: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  settled: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  complete: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  enabled: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  active: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  pending: "bg-amber-50 text-amber-800 ring-amber-600/20",
  expiring: "bg-amber-50 text-amber-800 ring-amber-600/20",
  open: "bg-sky-50 text-sky-800 ring-sky-600/20",
  requires_payment: "bg-sky-50 text-sky-800 ring-sky-600/20",
  partially_refunded: "bg-violet-50 text-violet-800 ring-violet-600/20",
  refunded: "bg-violet-50 text-violet-800 ring-violet-600/20",
  failed: "bg-red-50 text-red-800 ring-red-600/20",
  past_due: "bg-red-50 text-red-800 ring-red-600/20",
  held: "bg-amber-50 text-amber-800 ring-amber-600/20",
  queued: "bg-amber-50 text-amber-800 ring-amber-600/20",
  retrying: "bg-amber-50 text-amber-800 ring-amber-600/20",
  sending: "bg-sky-50 text-sky-800 ring-sky-600/20",
  committed: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  released: "bg-slate-100 text-slate-700 ring-slate-500/20",
  disabled: "bg-red-50 text-red-800 ring-red-600/20",
  revoked: "bg-slate-100 text-slate-700 ring-slate-500/20",
  archived: "bg-slate-100 text-slate-700 ring-slate-500/20",
  redeemed: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  canceled: "bg-slate-100 text-slate-700 ring-slate-500/20",
  expired: "bg-slate-100 text-slate-700 ring-slate-500/20",
  closed: "bg-slate-100 text-slate-700 ring-slate-500/20",
  needs_response: "bg-red-50 text-red-800 ring-red-600/20",
  warning_needs_response: "bg-amber-50 text-amber-800 ring-amber-600/20",
  under_review: "bg-sky-50 text-sky-800 ring-sky-600/20",
  warning_under_review: "bg-sky-50 text-sky-800 ring-sky-600/20",
  won: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  lost: "bg-red-50 text-red-800 ring-red-600/20",
  warning_closed: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      data-testid="status"
      data-status={status}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${ownValue(TONE, status) ?? "bg-slate-100 text-slate-700 ring-slate-500/20"}`}
    >
      {statusLabel(status)}
    </span>
  );
}

/** The "Status" column of a list whose rows have a status. */
export function statusColumn<T extends { status: string }>(): Column<T> {
  return { header: "Status", cell: (row) => <StatusBadge status={row.status} /> };
}
