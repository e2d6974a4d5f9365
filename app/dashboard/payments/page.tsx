// PaymentIntents of the current mode, with a status filter and cursor pagination (listPaymentIntents, as /v1).
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { PaymentMethod } from "@/components/dashboard/PaymentMethod";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { amountColumn } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { SourceBadge } from "@/components/dashboard/SourceBadge";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { SourceFilter, StatusFilter } from "@/components/dashboard/StatusFilter";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, sourceQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { PAYMENT_SOURCES } from "@/lib/payment-sources";
import { PAYMENT_INTENT_STATUSES } from "@/lib/payments/transitions";
import { listPaymentIntents } from "@/lib/checkouts/read-orders-and-payments";

export const metadata: Metadata = { title: "Payments" };

export default async function PaymentsPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const query = await listPageQuery(searchParams, PAYMENT_INTENT_STATUSES);
  const source = await sourceQuery(searchParams, PAYMENT_SOURCES);
  const page = await orNotFound(listPaymentIntents(getDb(), scope, { ...query, source }));
  return (
    <>
      <PageHeader
        title="Payments"
        description="PaymentIntents: the money side of every checkout, paywall and meter."
        actions={
          <a
            href={`/api/dashboard/payments/export?${new URLSearchParams({ ...(query.status ? { status: query.status } : {}), ...(source ? { source } : {}) })}`}
            download
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-900 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Export CSV
          </a>
        }
      />
      <StatusFilter basePath="/dashboard/payments" statuses={PAYMENT_INTENT_STATUSES} current={query.status} keep={{ source }} />
      <SourceFilter basePath="/dashboard/payments" current={source} status={query.status} />
      <Section title={query.status ? `Payments: ${query.status.replace(/_/g, " ")}` : "All payments"} flush>
        <DataTable
          caption="PaymentIntents"
          rows={page.data}
          rowHref={(pi) => `/dashboard/payments/${pi.id}`}
          empty={<EmptyState title={query.status || source ? "No payments match this filter" : "No payments yet"} />}
          columns={[
            amountColumn(),
            statusColumn(),
            { header: "Source", cell: (pi) => <SourceBadge source={pi.source} /> },
            { header: "Payment method", cell: (pi) => <PaymentMethod value={pi.paymentMethod} />, hideOnMobile: true },
            {
              header: "PaymentIntent",
              cell: (pi) => <span className="font-mono text-xs text-slate-600">{pi.id}</span>,
              hideOnMobile: true,
            },
            { header: "Created", cell: (pi) => formatDateTime(pi.createdAt), align: "right" },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/payments"
          query={{ status: query.status, source, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
