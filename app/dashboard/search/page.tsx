// Search: an id opens its page at once; other text lists matching customers (email, name) and orders
// (their checkout's description). lib/dashboard/search.ts.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { getDb } from "@/lib/db";
import type { SearchParams } from "@/lib/dashboard/list-query";
import { isSearchableText, pageOfId, searchText } from "@/lib/dashboard/search";
import { requireDashboard } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Search" };

export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : (raw ?? "")).replace(/\0/g, "").trim().slice(0, 200);
  const db = getDb();
  const page = q ? await pageOfId(db, scope, q) : null;
  if (page) redirect(page);
  const hits = q ? await searchText(db, scope, q) : [];
  // Text search needs 3 letters or digits in a row (lib/dashboard/search.ts, isSearchableText); an id needs not.
  const tooShort = q !== "" && !isSearchableText(q);
  return (
    <>
      <PageHeader
        title="Search"
        description={
          q
            ? `Results for “${q}”`
            : "Search by id (ord_, pi_, cs_, cus_, evt_, we_, mtr_), customer email or name, or an order's description."
        }
      />
      <Section title="Results" flush>
        {hits.length === 0 ? (
          <EmptyState
            title={tooShort ? "Type a little more" : q ? "Nothing found" : "Type something to search"}
            description={
              tooShort
                ? "No object of this mode has that id. To search customers and orders, type at least 3 letters or digits in a row."
                : q
                  ? "No object of this mode has that id, and no customer or order matches."
                  : undefined
            }
          />
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="search-results">
            {hits.map((hit) => (
              <li key={`${hit.kind}:${hit.id}`} className="px-5 py-3">
                <Link href={hit.href} className="font-medium text-indigo-700 hover:underline">
                  {hit.title}
                </Link>
                <span className="ml-2 text-xs uppercase tracking-wide text-slate-500">{hit.kind}</span>
                <p className="text-sm text-slate-600">
                  {hit.detail ? `${hit.detail} · ` : ""}
                  <span className="font-mono text-xs">{hit.id}</span>
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
