// Disputes of the current mode, newest first, with a status filter: those awaiting a response show when it is due
// (listDisputes, as GET /v1/disputes).
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { amountColumn } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { ResponseDue } from "@/components/dashboard/disputes/ResponseDue";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { listDisputes } from "@/lib/disputes/list-disputes";
import { DISPUTE_STATUSES } from "@/lib/disputes/transitions";

export const metadata: Metadata = { title: "Disputes" };

export default async function DisputesPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const query = await listPageQuery(searchParams, DISPUTE_STATUSES);
  const page = await orNotFound(listDisputes(getDb(), scope, query));
  return (
    <>
      <PageHeader
        title="Disputes"
        description="Payments the payer's bank disputed. Respond before the due date with your evidence and the agent evidence pack, or accept."
      />
      <StatusFilter basePath="/dashboard/disputes" statuses={DISPUTE_STATUSES} current={query.status} />
      <Section title={query.status ? `Disputes: ${query.status.replace(/_/g, " ")}` : "All disputes"} flush>
        <DataTable
          caption="Disputes"
          rows={page.data}
          rowHref={(dispute) => `/dashboard/disputes/${dispute.id}`}
          empty={
            <EmptyState
              title={query.status ? "No disputes match this filter" : "No disputes"}
              description="When a payer's bank disputes a payment, it appears here with the date your response is due."
            />
          }
          columns={[
            amountColumn(),
            statusColumn(),
            { header: "Reason", cell: (dispute) => dispute.reason.replace(/_/g, " ") },
            { header: "Respond by", cell: (dispute) => <ResponseDue dispute={dispute} /> },
            {
              header: "Payment",
              cell: (dispute) => <span className="font-mono text-xs text-slate-600">{dispute.paymentIntentId}</span>,
              hideOnMobile: true,
            },
            { header: "Opened", cell: (dispute) => formatDateTime(dispute.createdAt), align: "right", hideOnMobile: true },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/disputes"
          query={{ status: query.status, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
