// Customers of the current mode, newest first, with their test wallet balances (listCustomers, as /v1).
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { WalletBalances } from "@/components/dashboard/WalletBalances";
import { listCustomers } from "@/lib/customers/list-customers";
import { getDb } from "@/lib/db";
import { walletBalances } from "@/lib/dashboard/customer-wallets";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Customers" };

export default async function CustomersPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const db = getDb();
  const query = await listPageQuery(searchParams, []);
  const page = await orNotFound(
    listCustomers(db, scope, { limit: query.limit, ...(query.startingAfter ? { startingAfter: query.startingAfter } : {}) }),
  );
  const wallets = await walletBalances(
    db,
    page.data.map((customer) => customer.id),
  );
  return (
    <>
      <PageHeader
        title="Customers"
        description="The payers you created with POST /v1/customers; in test mode each can hold a wallet that pays as cus_… ."
      />
      <Section title="All customers" flush>
        <DataTable
          caption="Customers"
          rows={page.data}
          rowHref={(customer) => `/dashboard/customers/${customer.id}`}
          empty={
            <EmptyState
              title="No customers yet"
              description="Create one with POST /v1/customers; fund its test wallet with POST /v1/customers/:id/fund."
            />
          }
          columns={[
            { header: "Name", cell: (customer) => <span className="font-medium text-slate-900">{customer.name ?? "—"}</span> },
            { header: "Email", cell: (customer) => customer.email ?? "—", hideOnMobile: true },
            { header: "Wallet", cell: (customer) => <WalletBalances balances={wallets.get(customer.id)} /> },
            {
              header: "Customer",
              cell: (customer) => <span className="font-mono text-xs text-slate-600">{customer.id}</span>,
              hideOnMobile: true,
            },
            { header: "Created", cell: (customer) => formatDateTime(customer.createdAt), align: "right", hideOnMobile: true },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/customers"
          query={{ startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
