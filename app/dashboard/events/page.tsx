// Events of the current mode, newest first, filtered by type, with cursor pagination: the data of
// GET /v1/events through the same listEvents.
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { SampleEventBadge } from "@/components/dashboard/SampleEventBadge";
import { Section } from "@/components/dashboard/Section";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { getDb } from "@/lib/db";
import { eventObject, eventsPageQuery } from "@/lib/dashboard/events";
import { formatDateTime } from "@/lib/dashboard/format";
import type { SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireDashboard } from "@/lib/dashboard/session";
import { listEvents } from "@/lib/events/list-events";
import { EVENT_TYPES } from "@/lib/events/types";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope } = await requireDashboard();
  const query = await eventsPageQuery(searchParams);
  const page = await orNotFound(listEvents(getDb(), scope, query));
  return (
    <>
      <PageHeader
        title="Events"
        description="Everything that happened in this mode, as GET /v1/events and your webhooks see it. Open an event for its payload and deliveries."
      />
      <StatusFilter
        basePath="/dashboard/events"
        statuses={EVENT_TYPES}
        current={query.type}
        param="type"
        label="Filter by type"
        optionLabel={(type) => type}
      />
      <Section title={query.type ? `Events: ${query.type}` : "All events"} flush>
        <DataTable
          caption="Events"
          rows={page.data}
          rowHref={(event) => `/dashboard/events/${event.id}`}
          empty={
            <EmptyState
              title={query.type ? "No events of this type" : "No events yet"}
              description="Events are recorded as payments, orders and refunds change."
            />
          }
          columns={[
            {
              header: "Type",
              cell: (event) => (
                <>
                  <span className="font-mono text-xs text-slate-900" data-testid="event-type">
                    {event.type}
                  </span>
                  {eventObject(event.data)?.sample ? <SampleEventBadge /> : null}
                </>
              ),
            },
            {
              header: "Object",
              cell: (event) => {
                const object = eventObject(event.data);
                return object?.href ? (
                  <Link href={object.href} className="relative z-10 font-mono text-xs text-indigo-700 hover:underline">
                    {object.id}
                  </Link>
                ) : (
                  <span className="font-mono text-xs text-slate-600">{object?.id ?? "—"}</span>
                );
              },
              hideOnMobile: true,
            },
            { header: "Event", cell: (event) => <span className="font-mono text-xs text-slate-600">{event.id}</span>, hideOnMobile: true },
            { header: "Created", cell: (event) => formatDateTime(event.createdAt), align: "right" },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/events"
          query={{ type: query.type, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
