// One PaymentIntent: amounts, its order and its dispute, the timeline of its events, the refund button, and for a captured
// payment its signed receipt (docs/receipts.md; viewing it signs it the first time, as the API's GET does).
import type { Metadata } from "next";
import Link from "next/link";
import { AgentSummary } from "@/components/dashboard/AgentSummary";
import { DetailList } from "@/components/dashboard/DetailList";
import { paymentMethodRows } from "@/components/dashboard/PaymentMethod";
import { Money } from "@/components/dashboard/Money";
import { ReceiptSection } from "@/components/dashboard/payments/ReceiptSection";
import { RefundButton } from "@/components/dashboard/orders/RefundButton";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { SourceBadge } from "@/components/dashboard/SourceBadge";
import { StatusBadge } from "@/components/dashboard/StatusBadge";
import { Timeline } from "@/components/dashboard/Timeline";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { timelineOf } from "@/lib/dashboard/timeline";
import { getPaymentIntent } from "@/lib/checkouts/read-orders-and-payments";
import { hasReceipt, receiptFor } from "@/lib/receipts/receipt-for";
import { readReceipt } from "@/lib/receipts/read-receipt";
import { disputeOfPayment } from "@/lib/disputes/awaiting-response";

export const metadata: Metadata = { title: "Payment" };

export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { scope, role } = await requireDashboard();
  const db = getDb();
  const pi = await orNotFound(getPaymentIntent(db, scope, await pageId(params)));
  const [timeline, dispute] = await Promise.all([timelineOf(db, scope, [pi.id]), disputeOfPayment(db, scope, pi.id)]);
  const refundable = pi.amountCaptured - pi.amountRefunded;
  // A receipt that cannot be signed now (say, the database busy) leaves the rest of the page as it is.
  const jws = hasReceipt(pi.status) ? await receiptFor(db, pi.id).catch(() => null) : undefined;
  // Live x402 paid on chain went straight to the merchant's own wallet: nothing here can refund it (docs/x402.md "Going live").
  const onChain = pi.settlement;
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/payments" className="hover:underline">
            Payments
          </Link>
        }
        title={
          <span className="flex flex-wrap items-center gap-3">
            <Money amount={pi.amount} currency={pi.currency} />
            <StatusBadge status={pi.status} />
            <SourceBadge source={pi.source} />
          </span>
        }
        description={<span className="font-mono">{pi.id}</span>}
        actions={
          refundable > 0 && !onChain && hasRole(role, "admin") ? (
            <RefundButton target={{ paymentIntentId: pi.id }} currency={pi.currency} remaining={refundable} />
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Section title="Details" className="self-start lg:col-span-2">
          <DetailList
            items={[
              { label: "Amount", value: <Money amount={pi.amount} currency={pi.currency} /> },
              { label: "Captured", value: <Money amount={pi.amountCaptured} currency={pi.currency} /> },
              { label: "Refunded", value: <Money amount={pi.amountRefunded} currency={pi.currency} /> },
              { label: "Status", value: <StatusBadge status={pi.status} /> },
              { label: "Source", value: <SourceBadge source={pi.source} /> },
              {
                label: "Order",
                value: pi.orderId ? (
                  <Link href={`/dashboard/orders/${pi.orderId}`} className="font-mono text-indigo-700 hover:underline">
                    {pi.orderId}
                  </Link>
                ) : (
                  "—"
                ),
              },
              ...(dispute
                ? [
                    {
                      label: "Dispute",
                      value: (
                        <Link
                          href={`/dashboard/disputes/${dispute.id}`}
                          className="inline-flex items-center gap-2 text-indigo-700 hover:underline"
                          data-testid="payment-dispute"
                        >
                          <span className="font-mono">{dispute.id}</span>
                          <StatusBadge status={dispute.status} />
                        </Link>
                      ),
                    },
                  ]
                : []),
              ...paymentMethodRows(pi),
              ...(pi.agent ? [{ label: "Agent", value: <AgentSummary agent={pi.agent} /> }] : []),
              ...(onChain
                ? [
                    {
                      label: "Paid on chain",
                      value: (
                        <span className="flex flex-col gap-1">
                          <span className="break-all font-mono text-xs">{onChain.transaction}</span>
                          <span className="text-xs text-slate-600">
                            {onChain.network}, block {onChain.blockNumber}, to {onChain.payTo}. The money went straight to your wallet: this
                            service never held it and cannot refund it; refund the payer from that wallet.
                          </span>
                        </span>
                      ),
                    },
                  ]
                : []),
              { label: "Failure reason", value: pi.failureReason ? pi.failureReason.replace(/_/g, " ") : "—" },
              { label: "Captured at", value: pi.capturedAt ? formatDateTime(pi.capturedAt) : "—" },
              { label: "Settled at", value: pi.settledAt ? formatDateTime(pi.settledAt) : "—" },
              { label: "Created", value: formatDateTime(pi.createdAt) },
            ]}
          />
        </Section>
        <Section title="Timeline" className="self-start">
          <Timeline entries={timeline} created={{ title: "PaymentIntent created", at: pi.createdAt }} />
        </Section>
        {jws !== undefined ? (
          <div className="min-w-0 lg:col-span-3">
            <ReceiptSection receipt={jws === null ? null : readReceipt(pi.id, jws)} />
          </div>
        ) : null}
      </div>
    </>
  );
}
