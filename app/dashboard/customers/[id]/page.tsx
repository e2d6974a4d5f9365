// One customer: details, test wallet balances, and its payments (listPaymentIntents ?customerId=).
// Another merchant's or mode's customer is the 404 page (getCustomer is scoped like the API).
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { DetailList } from "@/components/dashboard/DetailList";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { amountColumn } from "@/components/dashboard/Money";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { PaymentMethod } from "@/components/dashboard/PaymentMethod";
import { Section } from "@/components/dashboard/Section";
import { SourceBadge } from "@/components/dashboard/SourceBadge";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { WalletBalances } from "@/components/dashboard/WalletBalances";
import { getCustomer } from "@/lib/customers/get-customer";
import { getDb, sql } from "@/lib/db";
import { walletBalances } from "@/lib/dashboard/customer-wallets";
import { formatDateTime } from "@/lib/dashboard/format";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { listPaymentIntents } from "@/lib/checkouts/read-orders-and-payments";

export const metadata: Metadata = { title: "Customer" };

export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  const { scope } = await requireDashboard();
  const db = getDb();
  const customer = await orNotFound(getCustomer(sql(), scope, await pageId(params)));
  const [wallets, payments] = await Promise.all([
    walletBalances(db, [customer.id]),
    listPaymentIntents(db, scope, { limit: 20, customerId: customer.id }),
  ]);
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/customers" className="hover:underline">
            Customers
          </Link>
        }
        title={customer.name ?? customer.email ?? customer.id}
        description={<span className="font-mono">{customer.id}</span>}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Section title="Details" className="self-start">
          <DetailList
            items={[
              { label: "Name", value: customer.name ?? "—" },
              { label: "Email", value: <span className="break-all">{customer.email ?? "—"}</span> },
              { label: "Test wallet", value: <WalletBalances balances={wallets.get(customer.id)} /> },
              { label: "Created", value: formatDateTime(customer.createdAt) },
            ]}
          />
        </Section>
        <Section title="Payments" description="The latest 20." className="lg:col-span-2" flush>
          <DataTable
            caption="Payments of this customer"
            rows={payments.data}
            rowHref={(pi) => `/dashboard/payments/${pi.id}`}
            empty={<EmptyState title="No payments yet" />}
            columns={[
              amountColumn(),
              statusColumn(),
              { header: "Source", cell: (pi) => <SourceBadge source={pi.source} />, hideOnMobile: true },
              { header: "Payment method", cell: (pi) => <PaymentMethod value={pi.paymentMethod} />, hideOnMobile: true },
              { header: "Created", cell: (pi) => formatDateTime(pi.createdAt), align: "right" },
            ]}
          />
        </Section>
      </div>
    </>
  );
}
