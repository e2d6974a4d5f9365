// The hosted pay page: server-rendered from the checkout as the API sees it; only the card form and the
// countdown need JavaScript, and the form also works as a plain HTML post. After paying, the page names the
// successUrl's host and waits for a click: it never forwards the payer by itself (any merchant sets any host).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CardForm } from "../../../components/pay/CardForm";
import { ExpiryCountdown } from "../../../components/pay/ExpiryCountdown";
import { OrderSummary, summaryItems } from "../../../components/pay/OrderSummary";
import { OutcomePanel, ReturnLink } from "../../../components/pay/OutcomePanel";
import { PayShell } from "../../../components/pay/PayShell";
import { DestinationLink, hostOf } from "../../../components/pay/DestinationLink";
import { getDb } from "../../../lib/db";
import type { CardField, CardFieldErrors } from "../../../lib/pay/card";
import { COUNTRY_CODES, countryList } from "../../../lib/pay/countries";
import { declineInPlainWords } from "../../../lib/pay/decline-reasons";
import { formatMoney } from "../../../lib/money/format";
import { issueFormToken } from "../../../lib/pay/form-token";
import { loadPayPage, type PayPageView } from "../../../lib/pay/load-pay-page";
import { isPayErrorCode, payErrorMessage } from "../../../lib/pay/messages";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ checkoutId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const load = cache((checkoutId: string) => loadPayPage(getDb(), checkoutId));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const view = await load((await params).checkoutId);
  return { title: view ? `Pay ${view.merchantName}` : "Checkout not found", robots: { index: false, follow: false } };
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function PayPage({ params, searchParams }: Params) {
  const view = await load((await params).checkoutId);
  if (!view) notFound();
  const query = await searchParams;
  const { checkout } = view;
  const money = (minor: number) => formatMoney(minor, checkout.currency);
  const open = checkout.status === "open";
  // eslint-disable-next-line react-hooks/purity -- a server component renders once per request: this is the countdown's start
  const serverNow = Date.now();

  const summary = (
    <OrderSummary
      merchantName={view.merchantName}
      logoUrl={view.brand.logoUrl}
      amountLabel={money(checkout.amount)}
      description={checkout.description}
      livemode={checkout.livemode}
      items={summaryItems(view.items, money)}
      countdown={open ? <ExpiryCountdown expiresAt={Date.parse(checkout.expiresAt)} serverNow={serverNow} /> : undefined}
    />
  );
  return (
    <PayShell summary={summary} brandColor={view.brand.color}>
      {panelFor(view, query, money)}
    </PayShell>
  );
}

function panelFor(view: PayPageView, query: Record<string, string | string[] | undefined>, money: (minor: number) => string) {
  const { checkout, merchantName } = view;
  const back = checkout.cancelUrl ? <ReturnLink href={checkout.cancelUrl} merchantName={merchantName} /> : null;
  switch (checkout.status) {
    case "open": {
      if (!view.paymentsAvailable) {
        return (
          <OutcomePanel tone="neutral" title="Payments are unavailable" testId="outcome-unavailable">
            <p>{payErrorMessage("live_unavailable")}</p>
            {back}
          </OutcomePanel>
        );
      }
      const error = one(query.error);
      const country = one(query.country)?.toUpperCase();
      const fields = (one(query.fields) ?? "").split(",").filter(Boolean) as CardField[];
      const fieldErrors: CardFieldErrors = Object.fromEntries(
        fields
          .filter((field) => ["cardNumber", "expiry", "cvc", "name", "billingCountry"].includes(field))
          .map((field) => [field, "Check this field."]),
      );
      return (
        <CardForm
          action={`/pay/${encodeURIComponent(checkout.id)}/submit`}
          footnote="Your card is charged once, when you press Pay. You can never be charged twice for this checkout."
          formToken={issueFormToken(checkout.id)}
          payLabel={money(checkout.amount)}
          countries={countryList()}
          defaultCountry="US"
          initialCountry={country && COUNTRY_CODES.has(country) ? country : undefined}
          initialMessage={isPayErrorCode(error) ? payErrorMessage(error, country) : undefined}
          initialFieldErrors={fieldErrors}
        />
      );
    }
    case "complete":
      if (one(query.status) === "success") {
        return (
          <OutcomePanel tone="success" title="Payment successful" testId="outcome-success">
            <p>
              {money(checkout.amount)} paid to {merchantName}. Thank you!
            </p>
            <p className="text-sm text-slate-500">Reference: {checkout.orderId}</p>
            {checkout.successUrl && (
              <DestinationLink href={checkout.successUrl} label={`Continue to ${hostOf(checkout.successUrl)}`} primary />
            )}
          </OutcomePanel>
        );
      }
      return (
        <OutcomePanel tone="success" title="This checkout is already paid" testId="outcome-already-paid">
          <p>
            {merchantName} has received {money(checkout.amount)} for it. Nothing more to do: you have not been charged again.
          </p>
          {checkout.successUrl && <ReturnLink href={checkout.successUrl} merchantName={merchantName} />}
        </OutcomePanel>
      );
    case "failed": {
      const words = declineInPlainWords(view.failureReason);
      return (
        <OutcomePanel tone="error" title="Payment declined" testId="outcome-declined">
          <p className="font-medium text-slate-900">{words.title}</p>
          <p>{words.detail}</p>
          <p>Nothing was charged. This payment attempt is closed; you can try again with another card.</p>
          <form method="post" action={`/pay/${encodeURIComponent(checkout.id)}/retry`}>
            <input type="hidden" name="formToken" value={issueFormToken(checkout.id)} />
            <button
              type="submit"
              className="inline-flex h-11 items-center justify-center rounded-md bg-[var(--brand,#4f46e5)] px-4 text-sm font-semibold text-[var(--brand-text,#ffffff)] shadow-sm hover:brightness-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              Try again with another card
            </button>
          </form>
          {back}
        </OutcomePanel>
      );
    }
    case "expired":
      return (
        <OutcomePanel tone="neutral" title="This checkout has expired" testId="outcome-expired">
          <p>The time to pay ran out and nothing was charged. Return to {merchantName} to start again.</p>
          {back}
        </OutcomePanel>
      );
    case "canceled":
      return (
        <OutcomePanel tone="neutral" title="This checkout was canceled" testId="outcome-canceled">
          <p>{merchantName} called this payment off. Nothing was charged.</p>
          {back}
        </OutcomePanel>
      );
    default:
      return (
        <OutcomePanel tone="neutral" title="This checkout is closed">
          <p>Nothing more can be paid here.</p>
        </OutcomePanel>
      );
  }
}
