// Hosted paid resources of the current mode (listPaidResources, as GET /v1/paid_resources; docs/x402.md):
// create, archive/restore, and each resource's sales (its captured PaymentIntents: count and amount).
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { Money } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { ArchivePaidResourceButton } from "@/components/dashboard/paid-resources/ArchivePaidResourceButton";
import { PaidResourceFormButton } from "@/components/dashboard/paid-resources/PaidResourceFormButton";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge } from "@/components/dashboard/StatusBadge";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { listPaidResources } from "@/lib/paid-resources/list-paid-resources";

export const metadata: Metadata = { title: "Paid resources" };

const FILTERS = ["active", "archived"] as const;

export default async function PaidResourcesPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope, mode, role } = await requireDashboard();
  const canEdit = hasRole(role, "developer");
  const query = await listPageQuery(searchParams, FILTERS);
  const active = query.status === undefined ? undefined : query.status === "active";
  const page = await orNotFound(listPaidResources(getDb(), scope, { limit: query.limit, startingAfter: query.startingAfter, active }));
  // The resource's sales: its PaymentIntents that were paid (captured, settled, or refunded since).
  const sales = page.data.length
    ? await getDb().paymentIntent.groupBy({
        by: ["paidResourceId"],
        where: {
          merchantId: scope.merchantId,
          livemode: scope.livemode,
          paidResourceId: { in: page.data.map((r) => r.id) },
          amountCaptured: { gt: 0 },
        },
        _count: { _all: true },
        _sum: { amountCaptured: true, amountRefunded: true },
      })
    : [];
  const salesOf = new Map(sales.map((s) => [s.paidResourceId, s]));
  return (
    <>
      <PageHeader
        title="Paid resources"
        description="Endpoints and content sold publicly over x402 (/x402/r/:id) and MPP (/mpp/r/:id): the payment is the credential."
        actions={canEdit ? <PaidResourceFormButton mode={mode} /> : null}
      />
      <StatusFilter basePath="/dashboard/paid-resources" statuses={FILTERS} current={query.status} />
      <Section title={query.status ? `Paid resources: ${query.status}` : "All paid resources"} flush>
        <DataTable
          caption="Paid resources"
          rows={page.data}
          empty={
            <EmptyState
              title={query.status ? `No ${query.status} paid resources` : "No paid resources yet"}
              description="Create one here, or with POST /v1/paid_resources."
            />
          }
          columns={[
            { header: "Name", cell: (r) => <span className="font-medium text-slate-900">{r.name}</span> },
            { header: "Price", cell: (r) => <Money amount={r.amount} currency={r.currency} /> },
            {
              header: "Sells",
              cell: (r) => <span className="text-sm text-slate-700">{r.url ? "forwarded request" : "JSON content"}</span>,
              hideOnMobile: true,
            },
            {
              header: "Sales",
              cell: (r) => {
                const s = salesOf.get(r.id);
                const net = (s?._sum.amountCaptured ?? 0) - (s?._sum.amountRefunded ?? 0);
                return (
                  <span className="text-sm text-slate-700">
                    {s?._count._all ?? 0} · <Money amount={net} currency={r.currency} />
                  </span>
                );
              },
            },
            { header: "Status", cell: (r) => <StatusBadge status={r.active ? "active" : "archived"} /> },
            {
              header: "x402 URL",
              cell: (r) => <span className="font-mono text-xs text-slate-600">{`/x402/r/${r.id}`}</span>,
              hideOnMobile: true,
            },
            { header: "Created", cell: (r) => formatDateTime(r.createdAt), hideOnMobile: true },
            ...(canEdit
              ? [
                  {
                    header: "Actions",
                    align: "right" as const,
                    pinned: true,
                    cell: (r: (typeof page.data)[number]) => <ArchivePaidResourceButton id={r.id} name={r.name} active={r.active} />,
                  },
                ]
              : []),
          ]}
        />
        <NextPageLink
          basePath="/dashboard/paid-resources"
          query={{ status: query.status, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
