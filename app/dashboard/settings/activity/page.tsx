// Settings -> Activity: the account activity log of the merchant and of its users (sign-ins, failed
// sign-ins, password resets, confirmations, OAuth consents and revocations, keys, members), newest first,
// a page at a time (lib/accounts/list-activity.ts). The same in test and live mode.
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { listActivity } from "@/lib/accounts/list-activity";
import { getDb } from "@/lib/db";
import { activityLabel, activitySummary, shortUserAgent } from "@/lib/dashboard/activity";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const query = await listPageQuery(searchParams, []);
  const page = await orNotFound(listActivity(getDb(), scope.merchantId, query));
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/settings" className="text-indigo-700 hover:underline">
            Settings
          </Link>
        }
        title="Activity"
        description="Sign-ins, failed sign-ins, password resets, connected apps and changes to this account, with where each came from. Something you do not recognise? Reset your password: it signs everyone out and disconnects every app."
      />
      <Section title="Account activity" flush>
        <DataTable
          caption="Account activity, newest first"
          rows={page.data}
          empty={<EmptyState title="No activity yet" description="Sign-ins and changes to the account appear here." />}
          columns={[
            {
              header: "Event",
              cell: (row) => {
                const summary = activitySummary(row.action, row.detail);
                return (
                  <div className="min-w-0">
                    <div className="font-medium text-slate-900" data-testid="activity-action" data-action={row.action}>
                      {activityLabel(row.action)}
                    </div>
                    {summary ? <div className="text-xs text-slate-600">{summary}</div> : null}
                    <div className="text-xs text-slate-600 sm:hidden">
                      {row.userEmail ?? "—"} · {row.ip ?? "unknown IP"}
                    </div>
                  </div>
                );
              },
            },
            { header: "User", cell: (row) => <span className="break-all text-slate-700">{row.userEmail ?? "—"}</span>, hideOnMobile: true },
            {
              header: "From",
              cell: (row) => (
                <div className="min-w-0">
                  <div className="font-mono text-xs text-slate-700">{row.ip ?? "unknown IP"}</div>
                  <div className="text-xs text-slate-600" title={row.userAgent ?? undefined}>
                    {shortUserAgent(row.userAgent)}
                  </div>
                </div>
              ),
              hideOnMobile: true,
            },
            { header: "When", cell: (row) => formatDateTime(row.createdAt), align: "right" },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/settings/activity"
          query={{ startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
