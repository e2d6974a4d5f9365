// A payment method in words ("Visa •••• 4242"), with the id the API records as its tooltip.
import { describePaymentMethod } from "@/lib/payments/describe-payment-method";

/** The detail rows of how a payment was paid: its method and the payer's billing details. */
export function paymentMethodRows(pi: { paymentMethod: string | null; billingDetails: { name: string | null; country: string | null } }) {
  return [
    { label: "Payment method", value: <PaymentMethod value={pi.paymentMethod} /> },
    {
      label: "Billing details",
      value: (
        <span data-testid="billing-details">{[pi.billingDetails.name, pi.billingDetails.country].filter(Boolean).join(" · ") || "—"}</span>
      ),
    },
  ];
}

export function PaymentMethod({ value }: { value: string | null }) {
  if (!value) return <span>—</span>;
  const { label } = describePaymentMethod(value);
  return (
    <span title={value} data-testid="payment-method">
      {label}
    </span>
  );
}
