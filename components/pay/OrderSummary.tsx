// The left-hand (top, on phones) panel: merchant, amount due, line items. Presentational only.
import type { ReactNode } from "react";

export interface SummaryItem {
  name: string;
  quantity: number;
  unitLabel: string;
  totalLabel: string;
}

/** Line items with their prices in words (`money` formats minor units in the order's currency). */
export function summaryItems(
  items: { name: string; quantity: number; unitAmount: number }[],
  money: (minor: number) => string,
): SummaryItem[] {
  return items.map((item) => ({
    name: item.name,
    quantity: item.quantity,
    unitLabel: money(item.unitAmount),
    totalLabel: money(item.quantity * item.unitAmount),
  }));
}

export function OrderSummary(props: {
  merchantName: string;
  /** The merchant's logo (Settings), shown instead of its initial. */
  logoUrl?: string | null;
  amountLabel: string;
  description: string | null;
  items: SummaryItem[];
  livemode: boolean;
  countdown?: ReactNode;
  /** The heading (default "Pay <merchant>") and the total's label (default "Total due"): an order page says "Order from". */
  heading?: string;
  totalLabel?: string;
}) {
  const initial = props.merchantName.trim().charAt(0).toUpperCase() || "?";
  return (
    <section aria-labelledby="pay-merchant" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        {props.logoUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- the merchant's own host; no image optimisation proxy for it
          <img
            src={props.logoUrl}
            alt=""
            referrerPolicy="no-referrer"
            className="size-8 rounded-full object-cover"
            data-testid="merchant-logo"
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex size-8 items-center justify-center rounded-full bg-[var(--brand,#4f46e5)] text-sm font-semibold text-[var(--brand-text,#ffffff)]"
          >
            {initial}
          </span>
        )}
        <span className="font-medium text-slate-800">{props.merchantName}</span>
        {!props.livemode && (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold uppercase tracking-wide text-amber-800">Test mode</span>
        )}
      </div>
      <div>
        <h1 id="pay-merchant" className="text-base font-medium text-slate-600">
          {props.heading ?? `Pay ${props.merchantName}`}
        </h1>
        <p className="mt-1 text-4xl font-semibold tracking-tight text-slate-900" data-testid="amount-due">
          {props.amountLabel}
        </p>
        {props.description && <p className="mt-2 text-sm text-slate-600">{props.description}</p>}
        {props.countdown && <div className="mt-3">{props.countdown}</div>}
      </div>
      {props.items.length > 0 && (
        <div>
          <h2 className="sr-only">Items</h2>
          <ul className="divide-y divide-slate-200 border-y border-slate-200 text-sm">
            {props.items.map((item, index) => (
              <li key={index} className="flex items-start justify-between gap-4 py-3">
                <div className="min-w-0">
                  <p className="break-words font-medium text-slate-800">{item.name}</p>
                  {item.quantity > 1 && (
                    <p className="text-slate-600">
                      Qty {item.quantity} × {item.unitLabel}
                    </p>
                  )}
                </div>
                <p className="shrink-0 font-medium text-slate-800">{item.totalLabel}</p>
              </li>
            ))}
          </ul>
          <p className="flex justify-between pt-3 text-sm font-semibold text-slate-900">
            <span>{props.totalLabel ?? "Total due"}</span>
            <span>{props.amountLabel}</span>
          </p>
        </div>
      )}
    </section>
  );
}
