// The payer's spending agents (listSpendingAgents, as GET /v1/spending_agents), newest first; each opens its page.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { listSpendingAgents } from "@/lib/spending-policies/agents";

export const metadata: Metadata = { title: "Spending agents" };

export default async function SpendingAgentsPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const query = await listPageQuery(searchParams, [] as const);
  const page = await orNotFound(listSpendingAgents(getDb(), scope, query));
  return (
    <>
      <PageHeader
        title="Spending agents"
        description="The agents you send out to pay (POST /v1/spending_agents): one policy over every credential that names them, checked at each charge."
      />
      <Section title="All spending agents" flush>
        <DataTable
          caption="Spending agents"
          rows={page.data}
          rowHref={(agent) => `/dashboard/spending-agents/${agent.id}`}
          empty={<EmptyState title="No spending agents yet" description="Create one with POST /v1/spending_agents and your own API key." />}
          columns={[
            { header: "Name", cell: (agent) => <span className="font-medium text-slate-900">{agent.name}</span> },
            { header: "Policy", cell: (agent) => (agent.policy ? "Its own" : "Your default") },
            { header: "Agent", cell: (agent) => <span className="font-mono text-xs text-slate-600">{agent.id}</span>, hideOnMobile: true },
            { header: "Created", cell: (agent) => formatDateTime(agent.createdAt), align: "right" },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/spending-agents"
          query={{ startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
