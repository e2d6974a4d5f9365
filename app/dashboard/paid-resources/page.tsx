// Hosted paid resources of the current mode (listPaidResources, as GET /v1/paid_resources; docs/x402.md):
// create, archive/restore, and each resource's pricing (its scheme, and an upto one's unit price and maximum) and
// sales (its captured PaymentIntents: count and amount); its name opens its page.
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { Money } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { ArchivePaidResourceButton } from "@/components/dashboard/paid-resources/ArchivePaidResourceButton";
import { PaidResourceFormButton } from "@/components/dashboard/paid-resources/PaidResourceFormButton";
import { PaidResourcePrice } from "@/components/dashboard/paid-resources/PaidResourcePrice";
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
import { paidResourceSales } from "./sales";

export const metadata: Metadata = { title: "Paid resources" };

const FILTERS = ["active", "archived"] as const;

export default async function PaidResourcesPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope, mode, role } = await requireDashboard();
  const canEdit = hasRole(role, "developer");
  const query = await listPageQuery(searchParams, FILTERS);
  const active = query.status === undefined ? undefined : query.status === "active";
  const page = await orNotFound(listPaidResources(getDb(), scope, { limit: query.limit, startingAfter: query.startingAfter, active }));
  const salesOf = await paidResourceSales(
    getDb(),
    scope,
    page.data.map((r) => r.id),
  );
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
            {
              header: "Name",
              // A plain link, not the row's: the row's stretched link would cover its Archive button.
              cell: (r) => (
                <Link href={`/dashboard/paid-resources/${r.id}`} className="font-medium text-indigo-700 hover:underline">
                  {r.name}
                </Link>
              ),
            },
            { header: "Scheme", cell: (r) => <span className="text-sm text-slate-700">{r.scheme}</span> },
            { header: "Price", cell: (r) => <PaidResourcePrice resource={r} /> },
            {
              header: "Sells",
              cell: (r) => <span className="text-sm text-slate-700">{r.url ? "forwarded request" : "JSON content"}</span>,
              hideOnMobile: true,
            },
            {
              header: "Sales",
              cell: (r) => {
                const s = salesOf.get(r.id);
                return (
                  <span className="text-sm text-slate-700">
                    {s?.count ?? 0} · <Money amount={s?.net ?? 0} currency={r.currency} />
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
