// One hosted paid resource (getPaidResource, as GET /v1/paid_resources/:id; docs/x402.md): how it is priced (its
// scheme; an upto one's unit price and maximum), what it sells, where payers reach it, and its sales.
// Another merchant's, or the other mode's, is the 404 page.
import type { Metadata } from "next";
import Link from "next/link";
import { DetailList } from "@/components/dashboard/DetailList";
import { Money } from "@/components/dashboard/Money";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { ArchivePaidResourceButton } from "@/components/dashboard/paid-resources/ArchivePaidResourceButton";
import { PaidResourcePrice, schemeLabel } from "@/components/dashboard/paid-resources/PaidResourcePrice";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge } from "@/components/dashboard/StatusBadge";
import { hasRole } from "@/lib/accounts/roles";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { getPaidResource } from "@/lib/paid-resources/get-paid-resource";
import { paidResourceSales } from "../sales";

export const metadata: Metadata = { title: "Paid resource" };

export default async function PaidResourcePage({ params }: { params: Promise<{ id: string }> }) {
  const { scope, role } = await requireDashboard();
  const db = getDb();
  const resource = await orNotFound(getPaidResource(db, scope, await pageId(params)));
  const sales = (await paidResourceSales(db, scope, [resource.id])).get(resource.id);
  const upto = resource.scheme === "upto";
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/paid-resources" className="hover:underline">
            Paid resources
          </Link>
        }
        title={resource.name}
        description={<span className="font-mono">{resource.id}</span>}
        actions={
          <>
            <StatusBadge status={resource.active ? "active" : "archived"} />
            {hasRole(role, "developer") ? (
              <ArchivePaidResourceButton id={resource.id} name={resource.name} active={resource.active} />
            ) : null}
          </>
        }
      />
      <Section title="Details">
        <DetailList
          items={[
            { label: "Description", value: resource.description ?? "—" },
            { label: "Scheme", value: schemeLabel(resource.scheme) },
            { label: "Price", value: <PaidResourcePrice resource={resource} /> },
            {
              label: "Sells",
              value: resource.url ? (
                <span className="break-all">
                  {resource.method} <span className="font-mono text-xs">{resource.url}</span> (forwarded)
                </span>
              ) : (
                "JSON content"
              ),
            },
            { label: "x402 URL", value: <span className="break-all font-mono text-xs">{resource.x402Url}</span> },
            // MPP sells fixed prices only (docs/x402.md, "Usage-priced resources").
            {
              label: "MPP URL",
              value: upto ? "Not sold over MPP (usage-priced)" : <span className="break-all font-mono text-xs">{resource.mppUrl}</span>,
            },
            { label: "Listed in discovery", value: resource.listed ? "Yes" : "No" },
            { label: "Keeps paid answers", value: resource.replayable ? "Yes (for a day, encrypted)" : "No" },
            {
              label: "Sales",
              value: (
                <span data-testid="paid-resource-sales">
                  {sales?.count ?? 0} · <Money amount={sales?.net ?? 0} currency={resource.currency} />
                </span>
              ),
            },
            { label: "Created", value: formatDateTime(resource.createdAt) },
          ]}
        />
      </Section>
    </>
  );
}
