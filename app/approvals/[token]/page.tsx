// The mailed approval link (docs/approvals.md): shows the payment an agent asked for and asks the payer to approve
// or decline it. Opening the page spends nothing; a button POSTs the decision (./decide), which spends the link.
import type { Metadata } from "next";
import { findByLinkToken } from "@/lib/approvals/store";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money/format";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Approve a payment · Agent Payments Service", referrer: "no-referrer" };

const DONE: Record<string, string> = {
  approved: "Approved: the payment was made.",
  declined: "Declined: nothing was charged.",
  expired: "This request expired: nothing was charged.",
};

export default async function ApprovalLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const request = await findByLinkToken(getDb(), token);
  const open = request?.status === "pending" && !request.linkUsedAt && request.expiresAt > new Date();
  return (
    <main className="mx-auto max-w-md px-6 py-16">
      <h1 className="text-xl font-semibold text-slate-900">Approve a payment</h1>
      {!request ? (
        <p className="mt-4 text-slate-700">This approval link is not valid.</p>
      ) : (
        <>
          <p className="mt-4 text-slate-700">
            Your spending agent <span className="font-mono">{request.spendingAgentId}</span> asks to pay{" "}
            <strong>{formatMoney(request.amount, request.currency)}</strong> to merchant{" "}
            <span className="font-mono">{request.payeeMerchantId}</span> ({request.protocol}).
          </p>
          {open ? (
            <form method="post" action={`/approvals/${encodeURIComponent(token)}/decide`} className="mt-6 flex gap-3">
              <button name="decision" value="approve" className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white">
                Approve
              </button>
              <button name="decision" value="decline" className="rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-900">
                Decline
              </button>
            </form>
          ) : (
            <p role="status" className="mt-6 text-slate-700">
              {DONE[request.status] ?? "This link was used already; nothing changed."}
            </p>
          )}
        </>
      )}
    </main>
  );
}
