// How a payment or order came (its `source`: api, pay_page, paywall, meter, spt, x402, mpp, ...) as a
// small outlined tag, distinct from the filled status pill beside it.
import { sourceLabel } from "@/lib/dashboard/format";

export function SourceBadge({ source }: { source: string }) {
  return (
    <span
      data-testid="source"
      data-source={source}
      className="inline-flex items-center rounded border border-slate-300 bg-white px-1.5 py-0.5 font-mono text-xs text-slate-700"
    >
      {sourceLabel(source)}
    </span>
  );
}
