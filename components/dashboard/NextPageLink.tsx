// Cursor pagination of a list page (the API's ?startingAfter=): "Next page" after the last row shown,
// and "First page" when not on the first. Keeps the page's other query parameters (filters).
import Link from "next/link";
import { buttonClass } from "./Button";

export function NextPageLink({
  basePath,
  query,
  lastId,
  hasMore,
}: {
  basePath: string;
  /** The page's current query (filters); startingAfter is replaced. */
  query: Record<string, string | undefined>;
  lastId: string | undefined;
  hasMore: boolean;
}) {
  const onFirstPage = !query.startingAfter;
  if (onFirstPage && !hasMore) return null;
  const href = (startingAfter?: string) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value && key !== "startingAfter") params.set(key, value);
    if (startingAfter) params.set("startingAfter", startingAfter);
    const text = params.toString();
    return text ? `${basePath}?${text}` : basePath;
  };
  return (
    <nav aria-label="Pagination" className="flex items-center justify-end gap-2 border-t border-slate-200 px-5 py-3">
      {!onFirstPage ? (
        <Link href={href()} className={buttonClass("secondary", "sm")}>
          First page
        </Link>
      ) : null}
      {hasMore && lastId ? (
        <Link href={href(lastId)} className={buttonClass("secondary", "sm")} rel="next">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
