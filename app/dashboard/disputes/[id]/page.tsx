// One dispute: amount, fee, reason and due date; the agent evidence pack previewed from what the service holds;
// the response form and "Accept dispute" while it awaits a response (admins and owners); its timeline. The payment's
// page links here.
import type { Metadata } from "next";
import Link from "next/link";
import { DetailList } from "@/components/dashboard/DetailList";
import { AcceptDisputeButton } from "@/components/dashboard/disputes/AcceptDisputeButton";
import { DisputeResponseForm } from "@/components/dashboard/disputes/DisputeResponseForm";
import { EvidencePackPreview } from "@/components/dashboard/disputes/EvidencePackPreview";
import { ResponseDue } from "@/components/dashboard/disputes/ResponseDue";
import { Money } from "@/components/dashboard/Money";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge } from "@/components/dashboard/StatusBadge";
import { Timeline } from "@/components/dashboard/Timeline";
import { hasRole } from "@/lib/accounts/roles";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { timelineOf } from "@/lib/dashboard/timeline";
import { buildEvidencePack } from "@/lib/disputes/evidence-pack";
import { getDispute } from "@/lib/disputes/get-dispute";
import { AWAITING_RESPONSE } from "@/lib/disputes/transitions";

export const metadata: Metadata = { title: "Dispute" };

const OUTCOME: Record<string, string> = {
  won: "Won: the amount and the fee are back in your balance.",
  lost: "Lost: the amount and the fee stay with the payer's bank.",
  warning_closed: "Closed: the inquiry ended without a dispute. No money moved.",
  under_review: "Under review: the card network is deciding on your evidence.",
  warning_under_review: "Under review: the card network is looking at your answer to the inquiry.",
};

export default async function DisputePage({ params }: { params: Promise<{ id: string }> }) {
  const { scope, role } = await requireDashboard();
  const db = getDb();
  const dispute = await orNotFound(getDispute(db, scope, await pageId(params)));
  const awaiting = AWAITING_RESPONSE.includes(dispute.status);
  const [timeline, pack] = await Promise.all([
    timelineOf(db, scope, [dispute.id]),
    // A pack that cannot be assembled now (say, the database busy) leaves the rest of the page as it is.
    buildEvidencePack(db, scope, dispute.id).catch(() => null),
  ]);
  const responds = awaiting && hasRole(role, "admin");
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/disputes" className="hover:underline">
            Disputes
          </Link>
        }
        title={
          <span className="flex flex-wrap items-center gap-3">
            <Money amount={dispute.amount} currency={dispute.currency} />
            <StatusBadge status={dispute.status} />
          </span>
        }
        description={<span className="font-mono">{dispute.id}</span>}
        actions={
          responds && !dispute.isInquiry ? (
            <AcceptDisputeButton disputeId={dispute.id} amount={dispute.amount} fee={dispute.fee} currency={dispute.currency} />
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Section title="Details" className="self-start lg:col-span-2">
          {OUTCOME[dispute.status] ? (
            <p className="mb-4 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800" data-testid="dispute-outcome" role="status">
              {OUTCOME[dispute.status]}
            </p>
          ) : null}
          <DetailList
            items={[
              { label: "Amount", value: <Money amount={dispute.amount} currency={dispute.currency} /> },
              { label: "Fee", value: <Money amount={dispute.fee} currency={dispute.currency} /> },
              { label: "Reason", value: dispute.reason.replace(/_/g, " ") },
              { label: "Kind", value: dispute.isInquiry ? "Inquiry (no money held)" : "Dispute" },
              {
                label: "Payment",
                value: (
                  <Link href={`/dashboard/payments/${dispute.paymentIntentId}`} className="font-mono text-indigo-700 hover:underline">
                    {dispute.paymentIntentId}
                  </Link>
                ),
              },
              { label: "Respond by", value: <ResponseDue dispute={dispute} /> },
              { label: "Evidence submitted", value: dispute.evidenceSubmittedAt ? formatDateTime(dispute.evidenceSubmittedAt) : "—" },
              { label: "Closed", value: dispute.closedAt ? formatDateTime(dispute.closedAt) : "—" },
              { label: "Opened", value: formatDateTime(dispute.createdAt) },
            ]}
          />
        </Section>
        <Section title="Timeline" className="self-start">
          <Timeline entries={timeline} created={{ title: "Dispute opened", at: dispute.createdAt }} />
        </Section>
        <Section title="Agent evidence pack" className="min-w-0 self-start lg:col-span-2">
          {pack ? (
            <EvidencePackPreview document={pack.document} pdfHref={`/api/dashboard/disputes/${dispute.id}/evidence-pack`} />
          ) : (
            <p className="text-sm text-slate-700">The evidence pack could not be assembled just now. Reload the page to try again.</p>
          )}
        </Section>
        {responds ? (
          <Section title="Respond" className="self-start">
            <DisputeResponseForm
              disputeId={dispute.id}
              saved={dispute.evidence}
              packAvailable={pack !== null}
              packAttached={Boolean(dispute.evidence.evidencePack)}
            />
          </Section>
        ) : dispute.evidenceSubmittedAt ? (
          <Section title="Your response" className="self-start">
            <p className="whitespace-pre-wrap text-sm text-slate-800">{dispute.evidence.uncategorizedText || "—"}</p>
            <p className="mt-2 text-xs text-slate-600">
              {dispute.evidence.evidencePack ? "The agent evidence pack was attached." : "No evidence pack was attached."}
            </p>
          </Section>
        ) : null}
      </div>
    </>
  );
}
