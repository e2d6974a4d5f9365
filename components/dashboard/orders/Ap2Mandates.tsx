// The AP2 mandates of an order (docs/a2a.md): the CartMandate the merchant signed (its jti, cart hash, signing key,
// expiry and JWT) and the PaymentMandate that paid it, each with its JSON for audit. Data comes from the page.
import { DetailList } from "@/components/dashboard/DetailList";
import { formatDateTime } from "@/lib/dashboard/format";
import type { OrderMandates } from "@/lib/ap2/order-mandates";

function Json({ label, value, testId }: { label: string; value: unknown; testId: string }) {
  return (
    <details className="mt-3" data-testid={testId}>
      <summary className="cursor-pointer text-sm font-medium text-indigo-700">{label}</summary>
      <pre tabIndex={0} aria-label={label} className="mt-2 max-h-96 overflow-auto rounded bg-slate-50 p-3 text-xs text-slate-800">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

export function Ap2Mandates({ mandates }: { mandates: OrderMandates }) {
  const payment = (mandates.paymentMandate ?? {}) as { payment_mandate_contents?: { merchant_agent?: string; timestamp?: string } };
  return (
    <div className="flex flex-col gap-5" data-testid="ap2-mandates">
      <div data-testid="cart-mandate">
        <h3 className="mb-2 text-sm font-semibold text-slate-900">CartMandate (signed by the merchant)</h3>
        <DetailList
          items={[
            { label: "Cart", value: <span className="font-mono">{mandates.cartId}</span> },
            {
              label: "JWT id (jti)",
              value: (
                <span className="font-mono" data-testid="mandate-jti">
                  {mandates.jti}
                </span>
              ),
            },
            {
              label: "Cart hash",
              value: (
                <span className="font-mono" data-testid="mandate-cart-hash">
                  {mandates.cartHash}
                </span>
              ),
            },
            { label: "Signing key", value: <span className="font-mono">{mandates.kid ?? "—"}</span> },
            { label: "Expires", value: formatDateTime(mandates.expiresAt) },
            { label: "Paid", value: mandates.usedAt ? formatDateTime(mandates.usedAt) : "—" },
          ]}
        />
        <Json label="CartMandate JSON" value={mandates.cartMandate} testId="cart-mandate-json" />
      </div>
      <div data-testid="payment-mandate">
        <h3 className="mb-2 text-sm font-semibold text-slate-900">PaymentMandate</h3>
        <DetailList
          items={[
            {
              label: "Mandate id",
              value: (
                <span className="font-mono" data-testid="payment-mandate-id">
                  {mandates.paymentMandateId ?? "—"}
                </span>
              ),
            },
            {
              label: "Shared payment token",
              value: (
                <span className="font-mono" data-testid="payment-mandate-token">
                  {mandates.tokenId ?? "—"}
                </span>
              ),
            },
            {
              label: "Merchant agent",
              value: <span className="break-all font-mono">{payment.payment_mandate_contents?.merchant_agent ?? "—"}</span>,
            },
            { label: "Timestamp", value: payment.payment_mandate_contents?.timestamp ?? "—" },
          ]}
        />
        <Json label="PaymentMandate JSON" value={mandates.paymentMandate} testId="payment-mandate-json" />
      </div>
    </div>
  );
}
