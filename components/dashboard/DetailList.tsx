// Label/value pairs of a detail page (a <dl> in two columns on wide screens).
import type { ReactNode } from "react";

export function DetailList({ items }: { items: { label: string; value: ReactNode }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[10rem_1fr]">
      {items.map((item) => (
        <div key={item.label} className="contents">
          <dt className="text-sm text-slate-600">{item.label}</dt>
          <dd className="min-w-0 break-words text-sm text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
