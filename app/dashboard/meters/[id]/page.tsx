// One meter: post-paid, what has accrued (not yet billed) and what was billed; prepaid, what was funded,
// reserved, used and refunded. Its payments (settlements, or a prepaid budget's fundings: the
// PaymentIntents with its meterId), its usage over time (a chart by hour or day, from the usage summary's
// per-hour rollup) and its most recent usage.
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { DataTable, type Column } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { amountColumn } from "@/components/dashboard/Money";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge, statusColumn } from "@/components/dashboard/StatusBadge";
import { UsageChart } from "@/components/dashboard/UsageChart";
import { getDb, sql } from "@/lib/db";
import { formatDateTime, formatMoney } from "@/lib/dashboard/format";
import { formatBaseUnits } from "@/lib/money/format";
import { describePaymentMethod } from "@/lib/payments/describe-payment-method";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import type { SearchParams } from "@/lib/dashboard/list-query";
import { requireDashboard } from "@/lib/dashboard/session";
import { getMeter } from "@/lib/meters/get-meter";
import { listRecentUsage } from "@/lib/meters/recent-usage";
import { getUsageSummary } from "@/lib/meters/usage-summary";
import { listPaymentIntents } from "@/lib/checkouts/read-orders-and-payments";

export const metadata: Metadata = { title: "Meter" };

const SETTLEMENTS_SHOWN = 20;

function Figure({ label, value, hint, testId }: { label: string; value: ReactNode; hint?: string; testId: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </dd>
      {hint ? <dd className="text-xs text-slate-600">{hint}</dd> : null}
    </div>
  );
}

export default async function MeterPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const id = await pageId(params);
  const interval = (await searchParams).usage === "day" ? "day" : "hour";
  const db = getDb();
  const [meter, settlements, usage, summary] = await orNotFound(
    Promise.all([
      getMeter(db, scope, id),
      listPaymentIntents(db, scope, { meterId: id, limit: SETTLEMENTS_SHOWN }),
      listRecentUsage(db, scope, id),
      getUsageSummary(sql(), scope, id, { interval }),
    ]),
  );
  const base = (amount: number) => formatBaseUnits(amount, meter.baseUnitsPerMinor, meter.currency);
  // What a reservation and a usage record both show: the amount, and the quantity at its unit price.
  const pricedColumns: Column<{ amountBase: number; quantity: number; unitPriceBase: number }>[] = [
    { header: "Amount", cell: (r) => <span className="tabular-nums">{base(r.amountBase)}</span> },
    {
      header: "Quantity",
      cell: (r) => (
        <span className="tabular-nums">
          {r.quantity.toLocaleString("en-US")} × {base(r.unitPriceBase)}
        </span>
      ),
      hideOnMobile: true,
    },
  ];
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/meters" className="font-medium text-indigo-700 hover:underline">
            Meters
          </Link>
        }
        title={<span className="font-mono text-xl">{meter.id}</span>}
        description={`${meter.prepaid ? "Prepaid" : "Post-paid"} meter in ${meter.currency} for customer ${meter.customerId}, charged to ${describePaymentMethod(meter.paymentMethod).label}.`}
        actions={<StatusBadge status={meter.status} />}
      />
      <Section
        title="Amounts"
        description={`Counted in base units: ${meter.baseUnitsPerMinor.toLocaleString("en-US")} make one minor unit, so usage can cost a fraction of a cent.`}
      >
        <dl className="grid grid-cols-2 gap-6 md:grid-cols-4">
          {meter.prepaid ? (
            <>
              <Figure
                label="Funded"
                value={formatMoney(meter.fundedMinor ?? 0, meter.currency)}
                hint="Charged up front (creation and top-ups)"
                testId="meter-funded"
              />
              <Figure label="Budget" value={base(meter.budgetBase ?? 0)} hint="The funds, in base units" testId="meter-budget" />
              <Figure label="Reserved" value={base(meter.reservedBase)} hint="Held by open reservations" testId="meter-reserved" />
              <Figure label="Available" value={base(meter.availableBase ?? 0)} hint="Budget − used − reserved" testId="meter-available" />
              <Figure
                label="Used in all"
                value={base(meter.usedBase)}
                hint="Drawn from the funds, never charged again"
                testId="meter-used"
              />
              <Figure
                label="Refunded"
                value={formatMoney(meter.refundedMinor ?? 0, meter.currency)}
                hint="Unused funds returned after close"
                testId="meter-refunded"
              />
            </>
          ) : (
            <>
              <Figure label="Accrued" value={base(meter.accruedBase)} hint="Metered, not yet billed" testId="meter-accrued" />
              <Figure
                label="Billed"
                value={formatMoney(meter.billedMinor, meter.currency)}
                hint={`${meter.settlementCount} settlement${meter.settlementCount === 1 ? "" : "s"}`}
                testId="meter-billed"
              />
              <Figure
                label="Threshold"
                value={formatMoney(meter.thresholdMinor, meter.currency)}
                hint="A settlement opens when accrued usage reaches it"
                testId="meter-threshold"
              />
              <Figure label="Used in all" value={base(meter.usedBase)} testId="meter-used" />
            </>
          )}
        </dl>
      </Section>
      <Section
        title="Usage over time"
        description={`${meter.prepaid ? "Committed calls" : "Usage records"} per ${interval} (UTC), from the meter's hourly totals.`}
        className="mt-6"
      >
        <nav aria-label="Usage interval" className="mb-3 flex gap-2 text-sm">
          {(["hour", "day"] as const).map((option) => (
            <Link
              key={option}
              href={option === "hour" ? `/dashboard/meters/${meter.id}` : `/dashboard/meters/${meter.id}?usage=day`}
              aria-current={option === interval ? "page" : undefined}
              className={
                option === interval
                  ? "rounded bg-indigo-50 px-2 py-1 font-medium text-indigo-800"
                  : "rounded px-2 py-1 font-medium text-indigo-700 hover:underline"
              }
            >
              {option === "hour" ? "Last 24 hours" : "Last 30 days"}
            </Link>
          ))}
        </nav>
        <UsageChart interval={summary.interval} data={summary.data} format={base} />
      </Section>
      <Section
        title="Payments"
        description={
          meter.prepaid
            ? "The fundings of the budget, charged up front; unused funds are refunded from them after close."
            : "The settlements that billed this meter's usage."
        }
        flush
        className="mt-6"
      >
        <DataTable
          caption="Payments"
          rows={settlements.data}
          rowHref={(pi) => `/dashboard/payments/${pi.id}`}
          empty={
            meter.prepaid ? (
              <EmptyState title="No fundings yet" description="Top up the budget to fund the meter." />
            ) : (
              <EmptyState
                title="No settlements yet"
                description={`One opens when accrued usage reaches ${formatMoney(meter.thresholdMinor, meter.currency)}, or when the meter is closed.`}
              />
            )
          }
          columns={[
            amountColumn(),
            { header: "Purpose", cell: (pi) => (pi.meterPurpose === "funding" ? "Funding" : "Settlement") },
            statusColumn(),
            { header: "Payment", cell: (pi) => <span className="font-mono text-xs text-slate-600">{pi.id}</span>, hideOnMobile: true },
            { header: "Created", cell: (pi) => formatDateTime(pi.createdAt), align: "right" },
          ]}
        />
        {settlements.hasMore ? (
          <p className="border-t border-slate-200 px-5 py-3 text-sm text-slate-600">
            Showing the latest {SETTLEMENTS_SHOWN}.{" "}
            <Link href={`/dashboard/payments`} className="font-medium text-indigo-700 hover:underline">
              All payments
            </Link>
          </p>
        ) : null}
      </Section>
      <Section
        title="Recent usage"
        description={usage.prepaid ? "The latest reservations against the budget." : "The latest usage records."}
        flush
        className="mt-6"
      >
        {usage.prepaid ? (
          <DataTable
            caption="Recent reservations"
            rows={usage.reservations}
            empty={<EmptyState title="No usage yet" />}
            columns={[...pricedColumns, statusColumn(), { header: "Created", cell: (r) => formatDateTime(r.createdAt), align: "right" }]}
          />
        ) : (
          <DataTable
            caption="Recent usage records"
            rows={usage.usageRecords}
            empty={<EmptyState title="No usage yet" />}
            columns={[
              ...pricedColumns,
              {
                header: "Idempotency key",
                cell: (r) => <span className="font-mono text-xs text-slate-600">{r.idempotencyKey}</span>,
                hideOnMobile: true,
              },
              { header: "Created", cell: (r) => formatDateTime(r.createdAt), align: "right" },
            ]}
          />
        )}
      </Section>
    </>
  );
}
