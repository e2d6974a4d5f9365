// A captured payment's signed receipt (docs/receipts.md): the key that signed it, where anyone verifies it, its
// claims, the compact JWS to copy and a download of it (.jws). Data comes from the page.
import { CopyButton } from "@/components/dashboard/CopyButton";
import { DetailList } from "@/components/dashboard/DetailList";
import { Section } from "@/components/dashboard/Section";

export interface ReceiptView {
  paymentIntentId: string;
  jws: string;
  kid: string;
  claims: Record<string, unknown>;
  jwksUrl: string;
}

export function ReceiptSection({ receipt }: { receipt: ReceiptView | null }) {
  return (
    <Section
      title="Receipt"
      description="Signed by this service: anyone can verify it offline against the published keys, as evidence of the payment."
      actions={
        receipt ? (
          <>
            <CopyButton value={receipt.jws} label="Copy JWS" />
            <a
              href={`/api/dashboard/payments/${receipt.paymentIntentId}/receipt`}
              download
              data-testid="receipt-download"
              className="rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50"
            >
              Download
            </a>
          </>
        ) : null
      }
    >
      {receipt ? (
        <div className="flex flex-col gap-3" data-testid="receipt">
          <DetailList
            items={[
              { label: "Signing key", value: <span className="break-all font-mono text-xs">{receipt.kid}</span> },
              { label: "Keys", value: <span className="break-all font-mono text-xs">{receipt.jwksUrl}</span> },
            ]}
          />
          <pre tabIndex={0} aria-label="Receipt claims" className="max-h-96 overflow-auto rounded bg-slate-50 p-3 text-xs text-slate-800">
            {JSON.stringify(receipt.claims, null, 2)}
          </pre>
          <code data-testid="receipt-jws" className="block select-all break-all rounded bg-slate-50 p-3 font-mono text-xs text-slate-700">
            {receipt.jws}
          </code>
        </div>
      ) : (
        <p className="text-sm text-slate-600">The receipt could not be signed just now: reload the page to try again.</p>
      )}
    </Section>
  );
}
