// Checkouts of the current mode: create one (then open its pay link), list with a status filter.
import type { Metadata } from "next";
import { CreateCheckoutButton } from "@/components/dashboard/checkouts/CreateCheckoutButton";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { amountColumn } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge } from "@/components/dashboard/StatusBadge";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { listCheckouts } from "@/lib/checkouts/list-checkouts";
import { CHECKOUT_STATUSES } from "@/lib/checkouts/transitions";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { whatWasSold } from "@/lib/dashboard/what-was-sold";
import { paymentsAvailable } from "@/lib/rails";

export const metadata: Metadata = { title: "Checkouts" };

export default async function CheckoutsPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope, mode, role } = await requireDashboard();
  const query = await listPageQuery(searchParams, CHECKOUT_STATUSES);
  const page = await orNotFound(listCheckouts(getDb(), scope, query));
  return (
    <>
      <PageHeader
        title="Checkouts"
        description="Hosted pay pages. Each checkout has a link a payer opens to pay."
        actions={hasRole(role, "developer") ? <CreateCheckoutButton mode={mode} /> : null}
      />
      <StatusFilter basePath="/dashboard/checkouts" statuses={CHECKOUT_STATUSES} current={query.status} />
      <Section title={query.status ? `Checkouts: ${query.status}` : "All checkouts"} flush>
        <DataTable
          caption="Checkouts"
          rows={page.data}
          rowHref={(checkout) => `/dashboard/checkouts/${checkout.id}`}
          empty={
            <EmptyState
              title={query.status ? "No checkouts with this status" : "No checkouts yet"}
              description="Create one here, or with POST /v1/checkouts."
            />
          }
          columns={[
            amountColumn(),
            {
              header: "Status",
              cell: (checkout) => (
                <>
                  <StatusBadge status={checkout.status} />
                  {checkout.status === "open" && !paymentsAvailable(checkout.livemode) ? (
                    <span className="ml-2 text-xs text-slate-600" data-testid="not-payable">
                      Cannot be paid yet
                    </span>
                  ) : null}
                </>
              ),
            },
            {
              header: "Description",
              cell: (checkout) => (
                <span className="block max-w-[16rem] truncate">{whatWasSold(checkout.description, checkout.items) ?? "—"}</span>
              ),
              hideOnMobile: true,
            },
            { header: "Expires", cell: (checkout) => formatDateTime(checkout.expiresAt), hideOnMobile: true },
            {
              header: "Pay link",
              align: "right",
              cell: (checkout) =>
                checkout.status === "open" ? (
                  <a
                    href={checkout.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="relative z-10 text-sm font-medium text-indigo-700 hover:underline"
                  >
                    Open<span className="sr-only"> the pay page of {checkout.id}</span>
                  </a>
                ) : (
                  "—"
                ),
            },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/checkouts"
          query={{ status: query.status, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
