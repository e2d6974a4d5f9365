// One spending agent (docs/spending-policies.md "Visibility"): its spend against each budget of the policy in force
// (the spend counters), the payments its credentials made on every protocol (with their source), and its policy
// refusals and approval requests. Each list is the agent's own rows, newest first, one page at a time
// (?paymentsAfter=, ?refusalsAfter=, ?approvalsAfter=).
// Another payer's, the other mode's or a deleted agent is the 404 page.
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/dashboard/Button";
import { DataTable } from "@/components/dashboard/DataTable";
import { DetailList } from "@/components/dashboard/DetailList";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { amountColumn, Money } from "@/components/dashboard/Money";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { SourceBadge } from "@/components/dashboard/SourceBadge";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { PAGE_SIZE, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import {
  budgetSpend,
  listAgentApprovals,
  listAgentPayments,
  listAgentRefusals,
  policyInForce,
} from "@/lib/spending-policies/agent-activity";
import { findSpendingAgent } from "@/lib/spending-policies/agents";
import { PATH_ID_PATTERN } from "@/lib/validation/text-safety";

export const metadata: Metadata = { title: "Spending agent" };

const WINDOW = { day: "Today (UTC)", week: "This week (UTC, from Monday)", month: "This month (UTC)" } as const;

/** A page cursor from the query: an id, else none (the first page). */
function cursor(value: string | string[] | undefined): string | undefined {
  const id = Array.isArray(value) ? value[0] : value;
  return id && id.length <= 64 && PATH_ID_PATTERN.test(id) ? id : undefined;
}

function OlderLink({ href, show }: { href: string; show: boolean }) {
  if (!show) return null;
  return (
    <nav aria-label="Pagination" className="flex justify-end border-t border-slate-200 px-5 py-3">
      <Link href={href} className={buttonClass("secondary", "sm")}>
        Older
      </Link>
    </nav>
  );
}

export default async function SpendingAgentPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const db = getDb();
  const agent = await orNotFound(findSpendingAgent(db, scope, await pageId(params)));
  const query = await searchParams;
  const { policy, own } = await policyInForce(db, agent);
  const [budgets, payments, refusals, approvals] = await Promise.all([
    budgetSpend(db, agent.id, policy),
    listAgentPayments(db, agent.id, { limit: PAGE_SIZE, after: cursor(query.paymentsAfter) }),
    listAgentRefusals(db, agent.id, { limit: PAGE_SIZE, after: cursor(query.refusalsAfter) }),
    listAgentApprovals(db, agent.id, { limit: PAGE_SIZE, after: cursor(query.approvalsAfter) }),
  ]);
  const base = `/dashboard/spending-agents/${agent.id}`;
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/spending-agents" className="hover:underline">
            Spending agents
          </Link>
        }
        title={agent.name}
        description={<span className="font-mono">{agent.id}</span>}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Section title="Details" className="self-start">
          <DetailList
            items={[
              { label: "Description", value: agent.description ?? "—" },
              { label: "Policy", value: policy ? (own ? "Its own" : "Your default policy") : "None: nothing is checked" },
              {
                label: "Wallets",
                value: agent.walletAddresses.length ? (
                  <span className="break-all font-mono text-xs">{agent.walletAddresses.join(", ")}</span>
                ) : (
                  "—"
                ),
              },
              { label: "Created", value: formatDateTime(agent.createdAt) },
            ]}
          />
        </Section>
        <Section title="Spend against its budgets" className="lg:col-span-2" flush>
          <DataTable
            caption="Budgets"
            rows={budgets.map((b) => ({ ...b, id: `${b.window}-${b.currency}` }))}
            empty={<EmptyState title="No budgets" description="Set them with POST /v1/spending_agents/:id/policy." />}
            columns={[
              { header: "Window", cell: (b) => WINDOW[b.window] },
              { header: "Spent", cell: (b) => <Money amount={b.spent} currency={b.currency} className="font-medium text-slate-900" /> },
              { header: "Budget", cell: (b) => <Money amount={b.amount} currency={b.currency} /> },
              { header: "Left", cell: (b) => <Money amount={Math.max(0, b.amount - b.spent)} currency={b.currency} />, align: "right" },
            ]}
          />
        </Section>
      </div>
      <Section title="Payments" description="Paid by its credentials, on every protocol; newest first." flush>
        <DataTable
          caption="Payments of this spending agent"
          rows={payments}
          empty={<EmptyState title="No payments yet" />}
          columns={[
            amountColumn(),
            statusColumn(),
            { header: "Source", cell: (pi) => (pi.source ? <SourceBadge source={pi.source} /> : "—") },
            { header: "Merchant", cell: (pi) => <span className="font-mono text-xs">{pi.merchantId}</span>, hideOnMobile: true },
            { header: "Created", cell: (pi) => formatDateTime(pi.createdAt), align: "right" },
          ]}
        />
        <OlderLink href={`${base}?paymentsAfter=${payments.at(-1)?.id}`} show={payments.length === PAGE_SIZE} />
      </Section>
      <Section title="Policy refusals" description="Charges its policy refused (payment.policy_refused); nothing was charged." flush>
        <DataTable
          caption="Policy refusals of this spending agent"
          rows={refusals.map((r) => ({ ...r, id: r.eventId }))}
          empty={<EmptyState title="No refusals" />}
          columns={[
            amountColumn(),
            {
              header: "Rule",
              cell: (r) => (
                <span className="font-mono text-xs" data-testid="refusal-reason">
                  {r.reason}
                </span>
              ),
            },
            { header: "Protocol", cell: (r) => <SourceBadge source={r.protocol} /> },
            { header: "Why", cell: (r) => r.message, hideOnMobile: true },
            { header: "When", cell: (r) => formatDateTime(r.createdAt), align: "right" },
          ]}
        />
        <OlderLink href={`${base}?refusalsAfter=${refusals.at(-1)?.eventId}`} show={refusals.length === PAGE_SIZE} />
      </Section>
      <Section title="Approval requests" description="Charges above its approval threshold, waiting for or decided by a person." flush>
        <DataTable
          caption="Approval requests of this spending agent"
          rows={approvals}
          rowHref={() => "/dashboard/approvals"}
          empty={<EmptyState title="No approval requests" />}
          columns={[
            amountColumn(),
            statusColumn(),
            { header: "Protocol", cell: (a) => <SourceBadge source={a.protocol} /> },
            { header: "Expires", cell: (a) => formatDateTime(a.expiresAt), hideOnMobile: true },
            { header: "Created", cell: (a) => formatDateTime(a.createdAt), align: "right" },
          ]}
        />
        <OlderLink href={`${base}?approvalsAfter=${approvals.at(-1)?.id}`} show={approvals.length === PAGE_SIZE} />
      </Section>
    </>
  );
}
