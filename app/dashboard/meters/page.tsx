// Meters of the current mode (usage-based billing per customer), with a status filter and pagination.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { getDb } from "@/lib/db";
import { formatDateTime, formatMoney } from "@/lib/dashboard/format";
import { formatBaseUnits } from "@/lib/money/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { listMeters } from "@/lib/meters/list-meters";
import { METER_STATUSES } from "@/lib/meters/schemas";

export const metadata: Metadata = { title: "Meters" };

export default async function MetersPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const query = await listPageQuery(searchParams, METER_STATUSES);
  const page = await orNotFound(listMeters(getDb(), scope, query));
  return (
    <>
      <PageHeader
        title="Meters"
        description="Usage-based billing: each meter accrues a customer's usage and charges it in one payment whenever it crosses its threshold."
      />
      <StatusFilter basePath="/dashboard/meters" statuses={METER_STATUSES} current={query.status} />
      <Section title={query.status ? `Meters: ${query.status.replace(/_/g, " ")}` : "All meters"} flush>
        <DataTable
          caption="Meters"
          rows={page.data}
          rowHref={(meter) => `/dashboard/meters/${meter.id}`}
          empty={
            <EmptyState
              title={query.status ? "No meters with this status" : "No meters yet"}
              description="Meters are opened through the API (POST /v1/meters)."
            />
          }
          columns={[
            { header: "Meter", cell: (meter) => <span className="font-mono text-xs text-slate-900">{meter.id}</span> },
            statusColumn(),
            { header: "Type", cell: (meter) => (meter.prepaid ? "Prepaid" : "Post-paid"), hideOnMobile: true },
            {
              header: "Accrued",
              cell: (meter) => (
                <span className="tabular-nums" data-testid="meter-accrued">
                  {formatBaseUnits(meter.accruedBase, meter.baseUnitsPerMinor, meter.currency)}
                </span>
              ),
              align: "right",
            },
            {
              header: "Billed",
              cell: (meter) => (
                <span className="tabular-nums" data-testid="meter-billed">
                  {formatMoney(meter.billedMinor, meter.currency)}
                </span>
              ),
              align: "right",
            },
            {
              header: "Customer",
              cell: (meter) => <span className="font-mono text-xs text-slate-600">{meter.customerId}</span>,
              hideOnMobile: true,
            },
            { header: "Created", cell: (meter) => formatDateTime(meter.createdAt), align: "right", hideOnMobile: true },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/meters"
          query={{ status: query.status, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
