// Connected apps of the current mode: the OAuth clients (MCP clients, agents, IDEs) that hold access to
// the account, with what they may do and when they last did it; revoke one at once.
import type { Metadata } from "next";
import { RevokeAppButton } from "@/components/dashboard/connected-apps/RevokeAppButton";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { requireDashboard } from "@/lib/dashboard/session";
import { listConnectedApps } from "@/lib/oauth/connected-apps";

export const metadata: Metadata = { title: "Connected apps" };

const SCOPE_LABELS: Record<string, string> = { read: "Read", write: "Create and refund" };

export default async function ConnectedAppsPage() {
  const { scope, mode } = await requireDashboard("developer");
  const apps = await listConnectedApps(getDb(), scope);
  return (
    <>
      <PageHeader
        title="Connected apps"
        description={`Apps you allowed to act for your account in ${mode} mode through the MCP server (/mcp). Revoking one ends its access at once.`}
      />
      <Section title={`${mode === "test" ? "Test" : "Live"}-mode apps`} flush>
        <DataTable
          caption="Connected apps"
          rows={apps}
          empty={<EmptyState title="No connected apps" description="Apps appear here after you allow them on the consent screen." />}
          columns={[
            {
              header: "App",
              cell: (app) => (
                <span className="flex flex-col">
                  <span className="font-medium text-slate-900" data-testid="app-name">
                    {app.clientName}
                  </span>
                  <span className="text-xs text-slate-600">{app.redirectHosts.join(", ")}</span>
                </span>
              ),
            },
            { header: "Access", cell: (app) => app.scopes.map((s) => SCOPE_LABELS[s] ?? s).join(", ") },
            { header: "Mode", cell: () => (mode === "live" ? "Live" : "Test"), hideOnMobile: true },
            { header: "Connected", cell: (app) => formatDateTime(app.createdAt), hideOnMobile: true },
            { header: "Last used", cell: (app) => (app.lastUsedAt ? formatDateTime(app.lastUsedAt) : "Never") },
            { header: "Actions", align: "right", pinned: true, cell: (app) => <RevokeAppButton id={app.id} name={app.clientName} /> },
          ]}
        />
      </Section>
    </>
  );
}
