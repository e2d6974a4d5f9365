// Orders of the current mode, newest first, with a status filter and cursor pagination (listOrders, as /v1).
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { amountColumn, Money } from "@/components/dashboard/Money";
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
import { checkoutDescriptions, whatWasSold } from "@/lib/dashboard/what-was-sold";
import { PAYMENT_SOURCES } from "@/lib/payment-sources";
import { ORDER_STATUSES } from "@/lib/orders/transitions";
import { listOrders } from "@/lib/checkouts/read-orders-and-payments";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const query = await listPageQuery(searchParams, ORDER_STATUSES);
  const source = await sourceQuery(searchParams, PAYMENT_SOURCES);
  const db = getDb();
  const page = await orNotFound(listOrders(db, scope, { ...query, source }));
  const descriptions = await checkoutDescriptions(
    db,
    scope,
    page.data.map((order) => order.checkoutId),
  );
  return (
    <>
      <PageHeader title="Orders" description="What payers bought. Open an order for its timeline and to refund it." />
      <StatusFilter basePath="/dashboard/orders" statuses={ORDER_STATUSES} current={query.status} keep={{ source }} />
      <SourceFilter basePath="/dashboard/orders" current={source} status={query.status} />
      <Section title={query.status ? `Orders: ${query.status.replace(/_/g, " ")}` : "All orders"} flush>
        <DataTable
          caption="Orders"
          rows={page.data}
          rowHref={(order) => `/dashboard/orders/${order.id}`}
          empty={
            <EmptyState
              title={query.status || source ? "No orders match this filter" : "No orders yet"}
              description="Orders are created when a checkout is opened, and paid when it is paid."
            />
          }
          columns={[
            amountColumn(),
            statusColumn(),
            { header: "Source", cell: (order) => <SourceBadge source={order.source} /> },
            {
              header: "Description",
              cell: (order) => (
                <span className="block max-w-[16rem] truncate" data-testid="sold">
                  {whatWasSold(descriptions.get(order.checkoutId ?? ""), order.items) ?? "—"}
                </span>
              ),
              hideOnMobile: true,
            },
            {
              header: "Refunded",
              cell: (order) => (order.amountRefunded ? <Money amount={order.amountRefunded} currency={order.currency} /> : "—"),
              hideOnMobile: true,
            },
            { header: "Order", cell: (order) => <span className="font-mono text-xs text-slate-600">{order.id}</span>, hideOnMobile: true },
            { header: "Created", cell: (order) => formatDateTime(order.createdAt), align: "right" },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/orders"
          query={{ status: query.status, source, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
