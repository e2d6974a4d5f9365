// One order: amounts, items, its PaymentIntent, refunds, the timeline of events, and the refund button.
// Another merchant's order, or one of the other mode, is the 404 page (getOrder is scoped like the API).
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { Ap2Mandates } from "@/components/dashboard/orders/Ap2Mandates";
import { paymentMethodRows } from "@/components/dashboard/PaymentMethod";
import { DetailList } from "@/components/dashboard/DetailList";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { LineItemsTable } from "@/components/dashboard/LineItemsTable";
import { Money } from "@/components/dashboard/Money";
import { RefundButton } from "@/components/dashboard/orders/RefundButton";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { SourceBadge } from "@/components/dashboard/SourceBadge";
import { StatusBadge, statusColumn } from "@/components/dashboard/StatusBadge";
import { Timeline } from "@/components/dashboard/Timeline";
import { permalinkUrl, sessionIdOfOrder } from "@/lib/acp/view-session";
import { orderMandates } from "@/lib/ap2/order-mandates";
import { getDb } from "@/lib/db";
import { formatDateTime, statusLabel } from "@/lib/dashboard/format";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { checkoutDescriptions } from "@/lib/dashboard/what-was-sold";
import { timelineOf } from "@/lib/dashboard/timeline";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { getOrder, getPaymentIntent } from "@/lib/checkouts/read-orders-and-payments";

export const metadata: Metadata = { title: "Order" };

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { scope, role } = await requireDashboard();
  const db = getDb();
  const order = await orNotFound(getOrder(db, scope, await pageId(params)));
  const [pi, refunds, timeline, acpSessionId, mandates, descriptions] = await Promise.all([
    getPaymentIntent(db, scope, order.paymentIntentId),
    listRefunds(db, scope, { limit: 100, paymentIntentId: order.paymentIntentId }),
    timelineOf(db, scope, [order.id, order.paymentIntentId]),
    order.source === "acp" ? sessionIdOfOrder(db, scope, order.id) : null,
    order.source === "ap2" ? orderMandates(db, scope, order.id) : null,
    checkoutDescriptions(db, scope, [order.checkoutId]),
  ]);
  const description = descriptions.get(order.checkoutId ?? "") ?? null;
  const refundable = pi.amountCaptured - pi.amountRefunded;
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/orders" className="hover:underline">
            Orders
          </Link>
        }
        title={
          <span className="flex flex-wrap items-center gap-3">
            <Money amount={order.amount} currency={order.currency} />
            <StatusBadge status={order.status} />
            <SourceBadge source={order.source} />
          </span>
        }
        description={<span className="font-mono">{order.id}</span>}
        actions={
          refundable > 0 && hasRole(role, "admin") ? (
            <RefundButton target={{ orderId: order.id }} currency={order.currency} remaining={refundable} />
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
          <Section title="Details">
            <DetailList
              items={[
                { label: "Description", value: <span data-testid="order-description">{description ?? "—"}</span> },
                { label: "Amount", value: <Money amount={order.amount} currency={order.currency} /> },
                {
                  label: "Refunded",
                  value: (
                    <span data-testid="amount-refunded">
                      <Money amount={order.amountRefunded} currency={order.currency} />
                    </span>
                  ),
                },
                { label: "Status", value: <StatusBadge status={order.status} /> },
                { label: "Source", value: <SourceBadge source={order.source} /> },
                {
                  label: "PaymentIntent",
                  value: (
                    <Link href={`/dashboard/payments/${pi.id}`} className="font-mono text-indigo-700 hover:underline">
                      {pi.id}
                    </Link>
                  ),
                },
                { label: "Payment status", value: <StatusBadge status={pi.status} /> },
                ...paymentMethodRows(pi),
                {
                  label: "Checkout",
                  value: order.checkoutId ? (
                    <Link href={`/dashboard/checkouts/${order.checkoutId}`} className="font-mono text-indigo-700 hover:underline">
                      {order.checkoutId}
                    </Link>
                  ) : (
                    "—"
                  ),
                },
                ...(acpSessionId
                  ? [
                      {
                        label: "ACP checkout session",
                        value: (
                          <a href={permalinkUrl(order.id)} className="font-mono text-indigo-700 hover:underline" data-testid="acp-session">
                            {acpSessionId}
                          </a>
                        ),
                      },
                    ]
                  : []),
                { label: "Customer", value: <span className="font-mono">{order.customerId ?? "—"}</span> },
                { label: "Created", value: formatDateTime(order.createdAt) },
              ]}
            />
          </Section>
          <Section title="Items" flush>
            <LineItemsTable
              items={order.items}
              currency={order.currency}
              empty={<EmptyState title="No line items" description="This order was opened with an amount only." />}
            />
          </Section>
          {mandates ? (
            <Section title="AP2 mandates" description="The cart the merchant signed and the payment mandate that paid it, kept for audit.">
              <Ap2Mandates mandates={mandates} />
            </Section>
          ) : null}
          <Section title="Refunds" flush>
            <DataTable
              caption="Refunds"
              rows={refunds.data}
              empty={<EmptyState title="No refunds" />}
              columns={[
                {
                  header: "Amount",
                  cell: (refund) => (
                    <>
                      <Money amount={refund.amount} currency={refund.currency} className="font-medium" />
                      <span className="block font-mono text-xs text-slate-500">{refund.id}</span>
                    </>
                  ),
                },
                statusColumn(),
                { header: "Reason", cell: (refund) => (refund.reason ? statusLabel(refund.reason) : "—"), hideOnMobile: true },
                { header: "Date", cell: (refund) => formatDateTime(refund.createdAt), align: "right" },
              ]}
            />
          </Section>
        </div>
        <Section title="Timeline" className="self-start">
          <Timeline entries={timeline} created={{ title: "Order created", at: order.createdAt }} />
        </Section>
      </div>
    </>
  );
}
