// GET /pay/paywall?merchant=&amount=&currency=&sku=: a person pays a paywall's terms with a test card and
// gets the paymentIntentId to paste back into the tool call (_servicePayment).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CardForm } from "../../../components/pay/CardForm";
import { CopyField } from "../../../components/pay/CopyField";
import { OrderSummary } from "../../../components/pay/OrderSummary";
import { OutcomePanel } from "../../../components/pay/OutcomePanel";
import { PayShell } from "../../../components/pay/PayShell";
import { getDb } from "../../../lib/db";
import type { CardField, CardFieldErrors } from "../../../lib/pay/card";
import { COUNTRY_CODES, countryList } from "../../../lib/pay/countries";
import { formatMoney } from "../../../lib/money/format";
import { issueFormToken } from "../../../lib/pay/form-token";
import { isPayErrorCode, payErrorMessage } from "../../../lib/pay/messages";
import { paidTermsPaymentIntent, PaywallTermsQuery, termsQuery, termsSubject } from "../../../lib/pay/paywall-terms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Pay for access", robots: { index: false, follow: false } };

type Query = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function PaywallPage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const parsed = PaywallTermsQuery.safeParse({
    merchant: one(query.merchant),
    amount: one(query.amount),
    currency: one(query.currency),
    sku: one(query.sku),
  });
  if (!parsed.success) {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-6 py-16">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">These payment terms are incomplete</h1>
        <p className="text-slate-700">
          The link needs a merchant, an amount in minor units, a currency and a sku. Ask for the payment link again.
        </p>
      </main>
    );
  }
  const terms = parsed.data;
  const merchant = await getDb().merchant.findUnique({ where: { id: terms.merchant }, select: { name: true } });
  if (!merchant) notFound();
  const amountLabel = formatMoney(terms.amount, terms.currency);

  const summary = (
    <OrderSummary
      merchantName={merchant.name}
      amountLabel={amountLabel}
      description={`Access to ${terms.sku}`}
      livemode={false}
      items={[{ name: terms.sku, quantity: 1, unitLabel: amountLabel, totalLabel: amountLabel }]}
    />
  );

  const paidId = one(query.paymentIntentId);
  const paid = paidId ? await paidTermsPaymentIntent(terms, paidId) : null;
  if (paid) {
    return (
      <PayShell summary={summary}>
        <OutcomePanel tone="success" title="Payment successful" testId="outcome-success">
          <p>
            {amountLabel} paid to {merchant.name} for {terms.sku}. Paste this PaymentIntent id back where you were asked to pay (as{" "}
            <code className="text-sm">_servicePayment.paymentIntentId</code>):
          </p>
          <CopyField label="PaymentIntent id" value={paid.id} />
        </OutcomePanel>
      </PayShell>
    );
  }

  const error = one(query.error);
  const param = one(query.country) ?? one(query.reason);
  const fields = (one(query.fields) ?? "")
    .split(",")
    .filter((field) => ["cardNumber", "expiry", "cvc", "name", "billingCountry"].includes(field)) as CardField[];
  const fieldErrors: CardFieldErrors = Object.fromEntries(fields.map((field) => [field, "Check this field."]));
  const country = one(query.country)?.toUpperCase();
  return (
    <PayShell summary={summary}>
      <CardForm
        action={`/pay/paywall/submit?${termsQuery(terms)}`}
        formToken={issueFormToken(termsSubject(terms))}
        payLabel={amountLabel}
        countries={countryList()}
        defaultCountry="US"
        initialCountry={country && COUNTRY_CODES.has(country) ? country : undefined}
        initialMessage={isPayErrorCode(error) ? payErrorMessage(error, param) : undefined}
        initialFieldErrors={fieldErrors}
        footnote="Each press of Pay is one payment for these terms; you get its PaymentIntent id to paste back."
      />
    </PayShell>
  );
}
