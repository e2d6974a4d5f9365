// When a dispute's response is due: the date while it awaits one (in red once it is close), else "—".
import { formatDateTime } from "@/lib/dashboard/format";
import { responseDueSoon } from "@/lib/disputes/response-due";
import { AWAITING_RESPONSE, type DisputeStatus } from "@/lib/disputes/transitions";

export function ResponseDue({ dispute }: { dispute: { status: DisputeStatus; evidenceDueBy: string } }) {
  if (!AWAITING_RESPONSE.includes(dispute.status)) return <span className="text-slate-500">—</span>;
  return (
    <span className={responseDueSoon(dispute.evidenceDueBy) ? "font-medium text-red-700" : "text-slate-800"} data-testid="response-due">
      {formatDateTime(dispute.evidenceDueBy)}
    </span>
  );
}
