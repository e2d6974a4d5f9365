// The payer's approval requests (listApprovalRequests, as GET /v1/approval_requests): charges of its spending
// agents above their policy's approval threshold. A pending one can be approved or declined by an admin or owner
// (docs/approvals.md, "Who may decide"); everyone else sees them.
import type { Metadata } from "next";
import { DecideApprovalButtons } from "@/components/dashboard/approvals/DecideApprovalButtons";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { Money } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { hasRole } from "@/lib/accounts/roles";
import { listApprovalRequests } from "@/lib/approvals/read";
import { APPROVAL_STATUSES } from "@/lib/approvals/schemas";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { formatMoney } from "@/lib/money/format";

export const metadata: Metadata = { title: "Approvals" };

export default async function ApprovalsPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope, role } = await requireDashboard();
  const query = await listPageQuery(searchParams, APPROVAL_STATUSES);
  const page = await orNotFound(listApprovalRequests(getDb(), scope, query));
  const mayDecide = hasRole(role, "admin");
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Payments your spending agents asked for above their policy's approval threshold. Nothing is charged until you approve; a request you leave expires with nothing charged."
      />
      <StatusFilter basePath="/dashboard/approvals" statuses={APPROVAL_STATUSES} current={query.status} />
      <Section title={query.status ? `Approval requests: ${query.status}` : "All approval requests"} flush>
        <DataTable
          caption="Approval requests"
          rows={page.data}
          empty={
            <EmptyState
              title={query.status ? `No ${query.status} approval requests` : "No approval requests yet"}
              description="Set an approvalThreshold on a spending agent's policy: charges above it wait here for you."
            />
          }
          columns={[
            {
              header: "Amount",
              cell: (r) => <Money amount={r.amount} currency={r.currency} className="font-medium text-slate-900" />,
            },
            statusColumn(),
            { header: "Agent", cell: (r) => <span className="font-mono text-xs">{r.spendingAgentId}</span>, hideOnMobile: true },
            { header: "Merchant", cell: (r) => <span className="font-mono text-xs">{r.merchantId}</span>, hideOnMobile: true },
            { header: "Via", cell: (r) => r.protocol, hideOnMobile: true },
            { header: "Request", cell: (r) => <span className="font-mono text-xs text-slate-600">{r.id}</span>, hideOnMobile: true },
            { header: "Expires", cell: (r) => formatDateTime(r.expiresAt), hideOnMobile: true },
            {
              header: "Actions",
              align: "right",
              pinned: true,
              cell: (r) =>
                r.status === "pending" && mayDecide ? <DecideApprovalButtons id={r.id} amount={formatMoney(r.amount, r.currency)} /> : "—",
            },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/approvals"
          query={{ status: query.status, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
