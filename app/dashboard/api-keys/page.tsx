// API keys of the current mode: create (secret shown once), list by prefix, revoke.
import type { Metadata } from "next";
import { CreateKeyButton } from "@/components/dashboard/api-keys/CreateKeyButton";
import { RevokeKeyButton } from "@/components/dashboard/api-keys/RevokeKeyButton";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { requireDashboard } from "@/lib/dashboard/session";
import { listApiKeys } from "@/lib/merchants/api-keys";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const { scope, mode } = await requireDashboard();
  const keys = await listApiKeys(getDb(), scope);
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Secret keys authenticate your server's requests to the ${mode}-mode API (Authorization: Bearer sk_${mode}_…). Keep them secret.`}
        actions={<CreateKeyButton mode={mode} />}
      />
      <Section title={`${mode === "test" ? "Test" : "Live"} secret keys`} flush>
        <DataTable
          caption="Secret keys"
          rows={keys}
          empty={<EmptyState title="No keys yet" description="Create a secret key to call the API." />}
          columns={[
            { header: "Name", cell: (key) => <span className="font-medium text-slate-900">{key.name ?? "Secret key"}</span> },
            {
              header: "Key",
              cell: (key) => (
                <code className="font-mono text-xs text-slate-700" data-testid="key-prefix">{`${key.prefix}…${key.last4}`}</code>
              ),
            },
            statusColumn(),
            { header: "Created", cell: (key) => formatDateTime(key.createdAt), hideOnMobile: true },
            {
              header: "Actions",
              align: "right",
              pinned: true,
              cell: (key) =>
                key.status === "active" ? (
                  <RevokeKeyButton id={key.id} label={`${key.prefix}…${key.last4}`} />
                ) : (
                  <span className="text-xs text-slate-500">Revoked {formatDateTime(key.revokedAt!)}</span>
                ),
            },
          ]}
        />
      </Section>
    </>
  );
}
