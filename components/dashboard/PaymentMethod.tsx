// A payment method in words ("Visa •••• 4242"), with the id the API records as its tooltip.
import { describePaymentMethod } from "@/lib/payments/describe-payment-method";

export function PaymentMethod({ value }: { value: string | null }) {
  if (!value) return <span>—</span>;
  const { label } = describePaymentMethod(value);
  return (
    <span title={value} data-testid="payment-method">
      {label}
    </span>
  );
}
