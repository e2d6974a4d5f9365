// API keys of the current mode: create a secret key or a restricted one (permission matrix; the secret shown once),
// list them masked (prefix + last4) with their type and permissions, roll, revoke (docs/restricted-keys.md).
import type { Metadata } from "next";
import { CreateKeyButton } from "@/components/dashboard/api-keys/CreateKeyButton";
import { CreateRestrictedKeyButton } from "@/components/dashboard/api-keys/CreateRestrictedKeyButton";
import { RevokeKeyButton } from "@/components/dashboard/api-keys/RevokeKeyButton";
import { RollKeyButton } from "@/components/dashboard/api-keys/RollKeyButton";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { requireDashboard } from "@/lib/dashboard/session";
import { listApiKeys, type ApiKeyObject } from "@/lib/merchants/api-keys";
import { describePermissions } from "@/lib/merchants/permissions";

export const metadata: Metadata = { title: "API keys" };

function ended(key: ApiKeyObject): string {
  if (key.status === "revoked") return `Revoked ${formatDateTime(key.revokedAt!)}`;
  if (key.status === "expired") return `Expired ${formatDateTime(key.expiresAt!)}`;
  return "";
}

export default async function ApiKeysPage() {
  const { scope, mode } = await requireDashboard("developer");
  const keys = await listApiKeys(getDb(), scope);
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Secret keys (sk_${mode}_…) can do everything in ${mode} mode; restricted keys (rk_${mode}_…) only what their permissions grant, for an agent or a single-purpose server. Keep them secret.`}
        actions={
          <>
            <CreateRestrictedKeyButton mode={mode} />
            <CreateKeyButton mode={mode} />
          </>
        }
      />
      <Section title={`${mode === "test" ? "Test" : "Live"} keys`} flush>
        <DataTable
          caption="API keys"
          rows={keys}
          empty={<EmptyState title="No keys yet" description="Create a secret key to call the API." />}
          columns={[
            {
              header: "Name",
              cell: (key) => (
                <span className="font-medium text-slate-900">
                  {key.name ?? (key.type === "restricted" ? "Restricted key" : "Secret key")}
                </span>
              ),
            },
            {
              header: "Key",
              cell: (key) => (
                <code className="font-mono text-xs text-slate-700" data-testid="key-prefix">{`${key.prefix}…${key.last4}`}</code>
              ),
            },
            {
              header: "Permissions",
              cell: (key) =>
                key.permissions ? (
                  <span className="text-xs text-slate-700" data-testid="key-permissions">
                    {describePermissions(key.permissions)}
                  </span>
                ) : (
                  <span className="text-xs text-slate-600">Full access</span>
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
                  <div className="flex justify-end gap-2">
                    <RollKeyButton id={key.id} label={`${key.prefix}…${key.last4}`} />
                    <RevokeKeyButton id={key.id} label={`${key.prefix}…${key.last4}`} />
                  </div>
                ) : key.status === "expiring" ? (
                  <div className="flex items-center justify-end gap-2">
                    <span className="text-xs text-slate-600">Stops {formatDateTime(key.expiresAt!)}</span>
                    <RevokeKeyButton id={key.id} label={`${key.prefix}…${key.last4}`} />
                  </div>
                ) : (
                  <span className="text-xs text-slate-600">{ended(key)}</span>
                ),
            },
          ]}
        />
      </Section>
    </>
  );
}
