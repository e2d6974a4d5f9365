// The agent evidence pack of a dispute as the merchant previews it before submitting (docs/disputes.md, "The evidence
// pack"): each section the service holds for the payment, its fields in words, and the signed PDF to download.
// Sections are read generically (their fields flattened), so a section the pack gains shows here unchanged.
import { DetailList } from "@/components/dashboard/DetailList";
import type { EvidencePackDocument } from "@/lib/disputes/evidence-pack";

const SECTIONS: { key: keyof EvidencePackDocument; title: string }[] = [
  { key: "payment", title: "Payment" },
  { key: "agent", title: "Verified agent" },
  { key: "ap2", title: "AP2 mandates" },
  { key: "x402", title: "x402 authorization" },
  { key: "acp", title: "ACP session" },
  { key: "delivery", title: "Delivery" },
];

/** Longest value shown; the PDF and the JWS hold the rest. */
const MAX_CHARS = 120;
const MAX_ROWS = 14;

function label(path: string): string {
  const words = path.replace(/\./g, " · ").replace(/([a-z0-9])([A-Z])/g, "$1 $2");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/** Scalar fields of a section, `a.b` for nested objects (two levels), arrays as their length. */
function rowsOf(value: unknown, prefix = "", depth = 0): { label: string; value: string }[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== "object") {
    const text = String(value);
    return [{ label: label(prefix || "value"), value: text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}…` : text }];
  }
  if (Array.isArray(value))
    return value.length ? [{ label: label(prefix), value: `${value.length} item${value.length === 1 ? "" : "s"}` }] : [];
  if (depth >= 2) return [];
  return Object.entries(value).flatMap(([key, child]) => rowsOf(child, prefix ? `${prefix}.${key}` : key, depth + 1));
}

export function EvidencePackPreview({ document, pdfHref }: { document: EvidencePackDocument; pdfHref: string }) {
  const sections = SECTIONS.map((section) => ({ ...section, rows: rowsOf(document[section.key]).slice(0, MAX_ROWS) })).filter(
    (section) => section.rows.length > 0,
  );
  return (
    <div className="flex flex-col gap-4" data-testid="evidence-pack">
      <p className="text-sm text-slate-700">
        Signed by this service (key <span className="font-mono text-xs">{String(document.receipt.kid ?? "—")}</span>, published at{" "}
        <span className="break-all font-mono text-xs">{document.receipt.jwksUrl}</span>), with the payment&apos;s receipt for{" "}
        <span className="font-mono text-xs">{document.receipt.paymentIntentId}</span> and {document.webhookDeliveries.length} webhook
        deliver{document.webhookDeliveries.length === 1 ? "y" : "ies"} that told you of it.
      </p>
      {sections.map((section) => (
        <section key={section.key} aria-label={section.title} className="min-w-0">
          <h3 className="mb-1 text-sm font-semibold text-slate-900">{section.title}</h3>
          <DetailList items={section.rows.map((row) => ({ label: row.label, value: <span className="break-all">{row.value}</span> }))} />
        </section>
      ))}
      <a
        href={pdfHref}
        download
        className="self-start rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-900 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Download the evidence pack (PDF)
      </a>
    </div>
  );
}
