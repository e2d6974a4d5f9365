// Status filter of a list page as links (works without JavaScript; the current one is aria-current).
// `param` filters by another query parameter (the events page: ?type=), `label` names the filter; `keep`
// carries the page's other filters on each link (status and source on the payments page).
import Link from "next/link";
import { sourceLabel, statusLabel } from "@/lib/dashboard/format";
import { PAYMENT_SOURCES } from "@/lib/payment-sources";

export function StatusFilter({
  basePath,
  statuses,
  current,
  param = "status",
  label = "Filter by status",
  optionLabel = statusLabel,
  keep = {},
}: {
  basePath: string;
  keep?: Record<string, string | undefined>;
  statuses: readonly string[];
  current?: string;
  param?: string;
  label?: string;
  optionLabel?: (value: string) => string;
}) {
  const options = [{ value: undefined, label: "All" }, ...statuses.map((status) => ({ value: status, label: optionLabel(status) }))];
  return (
    <nav aria-label={label} className="mb-4">
      <ul className="flex flex-wrap gap-2">
        {options.map((option) => {
          const active = option.value === current;
          return (
            <li key={option.label}>
              <Link
                href={hrefOf(basePath, { ...keep, [param]: option.value })}
                aria-current={active ? "page" : undefined}
                className={`inline-flex rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${active ? "border-indigo-600 bg-indigo-50 text-indigo-700" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
              >
                {option.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function hrefOf(basePath: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${basePath}?${text}` : basePath;
}

/** The payments' and orders' second filter: by source (the API, the pay page, x402, ...), keeping the status. */
export function SourceFilter({ basePath, current, status }: { basePath: string; current?: string; status?: string }) {
  return (
    <StatusFilter
      basePath={basePath}
      statuses={PAYMENT_SOURCES}
      current={current}
      param="source"
      label="Filter by source"
      optionLabel={sourceLabel}
      keep={{ status }}
    />
  );
}
