// Dashboard home: balance, net volume over the last 14 days, recent orders, failed webhook deliveries, and in live
// mode a warning when the service's x402 facilitator account is low on gas.
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { GettingStarted } from "@/components/dashboard/GettingStarted";
import { amountColumn, Money } from "@/components/dashboard/Money";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { RevenueChart } from "@/components/dashboard/RevenueChart";
import { SampleEventBadge } from "@/components/dashboard/SampleEventBadge";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { getDb } from "@/lib/db";
import { firstRunSteps } from "@/lib/dashboard/first-run";
import { formatDateTime, formatMoney } from "@/lib/dashboard/format";
import { recentFailedDeliveries, revenueByDay } from "@/lib/dashboard/home";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { getBalance } from "@/lib/ledger/get-balance";
import { listOrders } from "@/lib/checkouts/read-orders-and-payments";
import { facilitatorLowBalances } from "@/lib/x402/facilitator-balance";

export const metadata: Metadata = { title: "Home" };

export default async function DashboardHome() {
  const { scope, merchantName, role } = await requireDashboard();
  const db = getDb();
  const [balance, revenue, orders, failed, steps, lowGas] = await Promise.all([
    getBalance(db, scope),
    revenueByDay(db, scope, 14),
    listOrders(db, scope, { limit: 5 }),
    recentFailedDeliveries(db, scope, 5),
    firstRunSteps(db, scope),
    scope.livemode ? facilitatorLowBalances() : Promise.resolve([]),
  ]);
  const hasEndpoints = steps.find((step) => step.id === "webhook_endpoint")!.done;
  const currencies = [...new Set([...balance.pending, ...balance.payable].map((entry) => entry.currency))];
  const amountOf = (list: { currency: string; amount: number }[], currency: string) =>
    list.find((entry) => entry.currency === currency)?.amount ?? 0;
  const primary = revenue[0];

  return (
    <>
      <PageHeader title="Home" description={`An overview of ${merchantName}.`} />
      {hasRole(role, "developer") ? <GettingStarted steps={steps} /> : null}
      {lowGas.length > 0 ? (
        <p
          role="status"
          className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="facilitator-low-balance"
        >
          Live x402 payments on {lowGas.map((entry) => entry.network).join(", ")} may not settle: the service&apos;s facilitator account is
          low on gas ({lowGas.map((entry) => `${entry.balance} ETH`).join(", ")}). The operator has been warned in the log.
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <Section title="Balance" description="Pending funds settle into payable.">
          {currencies.length === 0 ? (
            <p className="text-sm text-slate-600">No funds yet.</p>
          ) : (
            <div className="flex flex-col gap-4" data-testid="balance">
              {currencies.map((currency) => (
                <dl key={currency} className="grid grid-cols-2 gap-2">
                  <div>
                    <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Pending</dt>
                    <dd className="text-xl font-semibold text-slate-900" data-testid={`balance-pending-${currency}`}>
                      <Money amount={amountOf(balance.pending, currency)} currency={currency} />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Payable</dt>
                    <dd className="text-xl font-semibold text-slate-900" data-testid={`balance-payable-${currency}`}>
                      <Money amount={amountOf(balance.payable, currency)} currency={currency} />
                    </dd>
                  </div>
                </dl>
              ))}
            </div>
          )}
        </Section>
        <Section
          title="Net volume"
          description={primary ? `Last 14 days, ${primary.currency}: ${formatMoney(primary.total, primary.currency)}` : "Last 14 days"}
          className="lg:col-span-2"
        >
          {primary ? <RevenueChart series={primary} /> : <p className="text-sm text-slate-600">No payments in the last 14 days.</p>}
        </Section>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Section
          title="Recent orders"
          actions={
            <Link href="/dashboard/orders" className="text-sm font-medium text-indigo-700 hover:underline">
              View all
            </Link>
          }
          flush
        >
          <DataTable
            caption="Recent orders"
            rows={orders.data}
            rowHref={(order) => `/dashboard/orders/${order.id}`}
            empty={
              <EmptyState
                title="No orders yet"
                description="Orders appear here when checkouts are paid."
                action={
                  <Link href="/dashboard/checkouts" className="text-sm font-medium text-indigo-700 hover:underline">
                    Create a checkout
                  </Link>
                }
              />
            }
            columns={[
              amountColumn(),
              statusColumn(),
              { header: "Created", cell: (order) => formatDateTime(order.createdAt), align: "right", hideOnMobile: true },
            ]}
          />
        </Section>
        <Section title="Failed webhook deliveries" flush>
          <DataTable
            caption="Failed webhook deliveries"
            rows={failed}
            rowHref={(attempt) => `/dashboard/webhooks/${attempt.endpointId}`}
            empty={
              hasEndpoints ? (
                <EmptyState title="No failed deliveries" description="Every webhook delivery attempt succeeded." />
              ) : (
                <EmptyState
                  title="No webhook endpoints"
                  description="Add an endpoint to receive events such as order.paid."
                  action={
                    <Link href="/dashboard/webhooks" className="text-sm font-medium text-indigo-700 hover:underline">
                      Add an endpoint
                    </Link>
                  }
                />
              )
            }
            columns={[
              {
                header: "Event",
                cell: (attempt) => (
                  <>
                    <span className="font-mono text-xs">{attempt.eventType}</span>
                    {attempt.sample ? <SampleEventBadge /> : null}
                  </>
                ),
              },
              {
                header: "Endpoint",
                cell: (attempt) => <span className="block max-w-[14rem] truncate text-xs">{attempt.endpointUrl}</span>,
                hideOnMobile: true,
              },
              {
                header: "Response",
                cell: (attempt) => (attempt.responseStatus ? `HTTP ${attempt.responseStatus}` : (attempt.error ?? "No response")),
              },
              { header: "When", cell: (attempt) => formatDateTime(attempt.attemptedAt), align: "right" },
            ]}
          />
        </Section>
      </div>
    </>
  );
}
