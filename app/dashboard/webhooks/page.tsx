// Webhook endpoints of the current mode: list, add (event picker; secret shown once).
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { AddEndpointButton } from "@/components/dashboard/webhooks/AddEndpointButton";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { listEndpoints } from "@/lib/webhooks/endpoints";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope, mode, role } = await requireDashboard();
  const query = await listPageQuery(searchParams, []);
  const page = await orNotFound(listEndpoints(getDb(), scope, query));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Endpoints that receive your ${mode}-mode events (orders, payments, refunds) as signed HTTPS POSTs.`}
        actions={hasRole(role, "developer") ? <AddEndpointButton mode={mode} /> : null}
      />
      <Section title="Endpoints" flush>
        <DataTable
          caption="Webhook endpoints"
          rows={page.data}
          rowHref={(endpoint) => `/dashboard/webhooks/${endpoint.id}`}
          empty={<EmptyState title="No endpoints yet" description="Add an endpoint to be told about payments as they happen." />}
          columns={[
            {
              header: "URL",
              cell: (endpoint) => (
                <span className="block max-w-[22rem] truncate font-mono text-xs text-slate-900" data-testid="endpoint-url">
                  {endpoint.url}
                </span>
              ),
            },
            {
              header: "Events",
              cell: (endpoint) =>
                endpoint.enabledEvents.length
                  ? `${endpoint.enabledEvents.length} event type${endpoint.enabledEvents.length === 1 ? "" : "s"}`
                  : "All events",
              hideOnMobile: true,
            },
            statusColumn(),
            { header: "Created", cell: (endpoint) => formatDateTime(endpoint.createdAt), align: "right", hideOnMobile: true },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/webhooks"
          query={{ startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
