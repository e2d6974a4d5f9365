// The ACP order permalink (`permalink_url` of a completed checkout session, lib/acp/view-session.ts): what was
// bought, for how much, and where the order stands (paid, refunded). Server-rendered, no JavaScript.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { OrderSummary, summaryItems } from "../../../../components/pay/OrderSummary";
import { PayShell } from "../../../../components/pay/PayShell";
import { loadAcpOrderPage } from "../../../../lib/acp/load-order-page";
import { getDb } from "../../../../lib/db";
import { formatMoney } from "../../../../lib/money/format";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

const load = cache((id: string) => loadAcpOrderPage(getDb(), id));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const view = await load((await params).id);
  return { title: view ? `Order from ${view.merchantName}` : "Order not found", robots: { index: false, follow: false } };
}

const STATUS_WORDS: Record<string, string> = {
  paid: "Paid",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
  canceled: "Canceled",
  pending: "Pending",
};

export default async function AcpOrderPage({ params }: Params) {
  const view = await load((await params).id);
  if (!view) notFound();
  const money = (minor: number) => formatMoney(minor, view.currency);
  const summary = (
    <OrderSummary
      merchantName={view.merchantName}
      heading={`Order from ${view.merchantName}`}
      totalLabel="Total paid"
      amountLabel={money(view.amount)}
      description={`Order ${view.orderId}`}
      livemode={view.livemode}
      items={summaryItems(view.items, money)}
    />
  );
  return (
    <PayShell summary={summary}>
      <section className="flex flex-col gap-4" aria-labelledby="order-status">
        <h2 id="order-status" className="text-2xl font-semibold tracking-tight text-slate-900" data-testid="order-status">
          {STATUS_WORDS[view.status] ?? view.status}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm text-slate-700">
          <dt className="font-medium">Order</dt>
          <dd className="break-all" data-testid="order-id">
            {view.orderId}
          </dd>
          <dt className="font-medium">Checkout session</dt>
          <dd className="break-all" data-testid="checkout-session-id">
            {view.checkoutSessionId}
          </dd>
          <dt className="font-medium">Placed</dt>
          <dd>{view.createdAt.toISOString().replace("T", " ").slice(0, 16)} UTC</dd>
          <dt className="font-medium">Paid by</dt>
          <dd>An AI agent, through the Agentic Commerce Protocol</dd>
          {view.amountRefunded > 0 && (
            <>
              <dt className="font-medium">Refunded</dt>
              <dd data-testid="amount-refunded">{money(view.amountRefunded)}</dd>
            </>
          )}
        </dl>
      </section>
    </PayShell>
  );
}
