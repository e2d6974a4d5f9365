// A list as an accessible table. With `rowHref`, the first cell is a link stretched over the whole row,
// so a row is one click (and one Tab stop) to its detail page.
import Link from "next/link";
import type { ReactNode } from "react";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  align?: "left" | "right";
  /** Hidden below the sm breakpoint (secondary columns on phones). */
  hideOnMobile?: boolean;
  /** Stays in view at the right edge while a narrow screen scrolls the table sideways (row actions). */
  pinned?: boolean;
}

export function DataTable<T extends { id: string }>({
  caption,
  columns,
  rows,
  rowHref,
  empty,
}: {
  /** Read by screen readers (visually hidden). */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowHref?: (row: T) => string;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
}) {
  if (rows.length === 0) return <>{empty}</>;
  const align = (column: Column<T>) =>
    `${column.align === "right" ? "whitespace-nowrap text-right" : "text-left"} ${column.hideOnMobile ? "hidden sm:table-cell" : ""} ${column.pinned ? "sticky right-0 bg-white shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.15)]" : ""}`;
  return (
    // Focusable so a keyboard can scroll it when a narrow screen makes it overflow.
    <div
      className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
      tabIndex={0}
      role="group"
      aria-label={caption}
    >
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 bg-slate-50/60">
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={`px-5 py-2.5 text-xs font-medium uppercase tracking-wide text-slate-600 ${align(column)}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const href = rowHref?.(row);
            return (
              <tr
                key={row.id}
                data-testid="row"
                data-id={row.id}
                className={`relative border-b border-slate-100 last:border-0 ${href ? "hover:bg-slate-50 focus-within:bg-slate-50" : ""}`}
              >
                {columns.map((column, index) => (
                  <td key={column.header} className={`px-5 py-3 align-middle text-slate-800 ${align(column)}`}>
                    {href && index === 0 ? (
                      <Link
                        href={href}
                        className="after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-indigo-600"
                      >
                        {column.cell(row)}
                      </Link>
                    ) : (
                      column.cell(row)
                    )}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
