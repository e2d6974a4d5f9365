// The agents seen on this merchant's payments (listAgentsSeen): each card-network agent that paid, by its agent
// key or its foreign operator, with its payments, how many had a verified signature, and when it was last seen.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { getDb } from "@/lib/db";
import { listAgentsSeen, type AgentSeen } from "@/lib/dashboard/agents-seen";
import { formatDateTime } from "@/lib/dashboard/format";
import { requireDashboard } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Agents" };

const PROTOCOLS: Record<string, string> = { tap: "Trusted Agent Protocol", "web-bot-auth": "Web Bot Auth", "card-form": "card form" };

function AgentCell({ agent }: { agent: AgentSeen }) {
  return (
    <span className="flex flex-col gap-0.5" data-testid="agent-seen">
      <span className="font-medium text-slate-900">{agent.name ?? agent.operator ?? "Unregistered agent"}</span>
      {agent.agentKeyId ? <span className="font-mono text-xs text-slate-600">{`agent key ${agent.agentKeyId}`}</span> : null}
      {agent.operator && agent.name ? <span className="font-mono text-xs text-slate-600">{`operator ${agent.operator}`}</span> : null}
      {agent.keyid ? <span className="break-all font-mono text-xs text-slate-600">{`keyid ${agent.keyid}`}</span> : null}
    </span>
  );
}

export default async function AgentsPage() {
  const { scope } = await requireDashboard();
  const agents = await listAgentsSeen(getDb(), scope);
  return (
    <>
      <PageHeader
        title="Agents"
        description="The card-network agents seen on your payments (Visa and Mastercard): registered agent keys and agents of trusted operators, verified by their signatures."
      />
      <Section title="Agents seen on your payments" flush>
        <DataTable
          caption="Agents seen on payments"
          rows={agents}
          empty={
            <EmptyState
              title="No agents yet"
              description="An agent paying through /visa or /mastercard appears here with its network and its verified identity."
            />
          }
          columns={[
            { header: "Agent", cell: (agent) => <AgentCell agent={agent} /> },
            {
              header: "Network",
              cell: (agent) => `${agent.network === "visa" ? "Visa" : "Mastercard"} · ${PROTOCOLS[agent.protocol] ?? agent.protocol}`,
            },
            { header: "Payments", align: "right", cell: (agent) => agent.payments },
            {
              header: "Verified",
              align: "right",
              cell: (agent) => (agent.verified === agent.payments ? "all" : `${agent.verified} of ${agent.payments}`),
              hideOnMobile: true,
            },
            { header: "Last seen", cell: (agent) => formatDateTime(agent.lastSeen), hideOnMobile: true },
          ]}
        />
      </Section>
    </>
  );
}
