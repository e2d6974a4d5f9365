// An object's events, oldest first, as an ordered list with times.
import { formatDateTime } from "@/lib/dashboard/format";
import type { TimelineEntry } from "@/lib/dashboard/timeline";

export function Timeline({ entries, created }: { entries: TimelineEntry[]; created?: { title: string; at: string } }) {
  const all = [
    ...(created ? [{ id: "created", type: "created", title: created.title, detail: null, createdAt: created.at }] : []),
    ...entries,
  ];
  return (
    <ol className="relative flex flex-col gap-5 border-l border-slate-200 pl-5" data-testid="timeline">
      {all.map((entry) => (
        <li key={entry.id} className="relative" data-testid="timeline-entry" data-type={entry.type}>
          <span
            aria-hidden
            className="absolute -left-[1.6rem] top-1.5 h-2.5 w-2.5 rounded-full border-2 border-white bg-indigo-500 ring-1 ring-slate-200"
          />
          <p className="text-sm font-medium text-slate-900">{entry.title}</p>
          {entry.detail ? <p className="text-sm text-slate-600">{entry.detail}</p> : null}
          <p className="mt-0.5 text-xs text-slate-500">
            <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
            {entry.type !== "created" ? <span className="ml-2 font-mono">{entry.type}</span> : null}
          </p>
        </li>
      ))}
    </ol>
  );
}
