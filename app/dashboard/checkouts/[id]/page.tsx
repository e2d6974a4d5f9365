// One checkout: what it sells (description and items), its pay link while open, where the payer goes
// after, and links to the order and PaymentIntent it made. Another merchant's or mode's checkout is the 404.
import type { Metadata } from "next";
import Link from "next/link";
import { DetailList } from "@/components/dashboard/DetailList";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { LineItemsTable } from "@/components/dashboard/LineItemsTable";
import { Money } from "@/components/dashboard/Money";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge } from "@/components/dashboard/StatusBadge";
import { Timeline } from "@/components/dashboard/Timeline";
import { getCheckout } from "@/lib/checkouts/get-checkout";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { timelineOf } from "@/lib/dashboard/timeline";
import { paymentsAvailable } from "@/lib/rails";

export const metadata: Metadata = { title: "Checkout" };

const idLink = (href: string, id: string) => (
  <Link href={href} className="font-mono text-indigo-700 hover:underline">
    {id}
  </Link>
);

export default async function CheckoutPage({ params }: { params: Promise<{ id: string }> }) {
  const { scope } = await requireDashboard();
  const db = getDb();
  const checkout = await orNotFound(getCheckout(db, scope, await pageId(params)));
  const timeline = await timelineOf(db, scope, [checkout.orderId, checkout.paymentIntentId]);
  const open = checkout.status === "open";
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/checkouts" className="hover:underline">
            Checkouts
          </Link>
        }
        title={
          <span className="flex flex-wrap items-center gap-3">
            <Money amount={checkout.amount} currency={checkout.currency} />
            <StatusBadge status={checkout.status} />
          </span>
        }
        description={<span className="font-mono">{checkout.id}</span>}
        actions={
          open ? (
            <a
              href={checkout.url}
              target="_blank"
              rel="noopener noreferrer"
              className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              Open pay page
            </a>
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
          <Section title="Details">
            <DetailList
              items={[
                { label: "Description", value: <span data-testid="checkout-description">{checkout.description ?? "—"}</span> },
                { label: "Amount", value: <Money amount={checkout.amount} currency={checkout.currency} /> },
                {
                  label: "Status",
                  value: (
                    <span className="flex flex-wrap items-center gap-2">
                      <StatusBadge status={checkout.status} />
                      {open && !paymentsAvailable(checkout.livemode) ? (
                        <span className="text-xs text-slate-600">Cannot be paid yet: live payments are not set up</span>
                      ) : null}
                    </span>
                  ),
                },
                { label: "Pay link", value: open ? <span className="break-all font-mono text-xs">{checkout.url}</span> : "— (closed)" },
                { label: "Order", value: idLink(`/dashboard/orders/${checkout.orderId}`, checkout.orderId) },
                { label: "PaymentIntent", value: idLink(`/dashboard/payments/${checkout.paymentIntentId}`, checkout.paymentIntentId) },
                { label: "Customer", value: <span className="font-mono">{checkout.customerId ?? "—"}</span> },
                { label: "After paying", value: <span className="break-all">{checkout.successUrl ?? "The pay page's receipt"}</span> },
                { label: "On cancel", value: <span className="break-all">{checkout.cancelUrl ?? "—"}</span> },
                { label: "Expires", value: formatDateTime(checkout.expiresAt) },
                { label: "Created", value: formatDateTime(checkout.createdAt) },
              ]}
            />
          </Section>
          <Section title="Items" flush>
            <LineItemsTable
              items={checkout.items}
              currency={checkout.currency}
              empty={
                <EmptyState
                  title="No line items"
                  description={
                    checkout.description ? `Opened with an amount only, for "${checkout.description}".` : "Opened with an amount only."
                  }
                />
              }
            />
          </Section>
        </div>
        <Section title="Timeline" className="self-start">
          <Timeline entries={timeline} created={{ title: "Checkout created", at: checkout.createdAt }} />
        </Section>
      </div>
    </>
  );
}
