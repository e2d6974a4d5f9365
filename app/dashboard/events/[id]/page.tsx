// One event: what it is about, its JSON as GET /v1/events/:id returns it, and its webhook deliveries
// (endpoint, status, attempts, latest response) with "Resend" per delivery (the webhooks pages' mutation).
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { DetailList } from "@/components/dashboard/DetailList";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { SampleEventBadge } from "@/components/dashboard/SampleEventBadge";
import { Section } from "@/components/dashboard/Section";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { ResendEventButton } from "@/components/dashboard/webhooks/ResendEventButton";
import { getDb } from "@/lib/db";
import { eventObject } from "@/lib/dashboard/events";
import { formatDateTime } from "@/lib/dashboard/format";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { getEvent } from "@/lib/events/get-event";
import { DELIVERY_LIMIT, listEventDeliveries } from "@/lib/webhooks/event-deliveries";

export const metadata: Metadata = { title: "Event" };

export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const { scope, role } = await requireDashboard();
  const id = await pageId(params);
  const db = getDb();
  const [event, deliveries] = await orNotFound(Promise.all([getEvent(db, scope, id), listEventDeliveries(db, scope, id)]));
  const object = eventObject(event.data);
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/events" className="hover:underline">
            Events
          </Link>
        }
        title={
          <>
            <span className="font-mono text-xl" data-testid="event-type">
              {event.type}
            </span>
            {object?.sample ? <SampleEventBadge /> : null}
          </>
        }
        description={<span className="font-mono">{event.id}</span>}
      />
      <Section title="Details">
        <DetailList
          items={[
            { label: "Type", value: <span className="font-mono text-xs">{event.type}</span> },
            {
              label: "Object",
              value: object?.href ? (
                <Link href={object.href} className="font-mono text-xs text-indigo-700 hover:underline" data-testid="event-object">
                  {object.id}
                </Link>
              ) : (
                <span className="font-mono text-xs" data-testid="event-object">
                  {object?.id ?? "—"}
                </span>
              ),
            },
            { label: "Mode", value: event.livemode ? "Live" : "Test" },
            { label: "Created", value: formatDateTime(event.createdAt) },
          ]}
        />
      </Section>
      <Section title="Payload" description="As GET /v1/events/:id returns it." className="mt-6">
        {/* Focusable so a keyboard can scroll a long payload. */}
        <pre
          tabIndex={0}
          aria-label="Event JSON"
          data-testid="event-payload"
          className="max-h-[28rem] overflow-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {JSON.stringify(event, null, 2)}
        </pre>
      </Section>
      <Section
        title="Webhook deliveries"
        description={`One row per delivery (a resend is a new one), newest first${deliveries.length === DELIVERY_LIMIT ? `, the latest ${DELIVERY_LIMIT}` : ""}.`}
        flush
        className="mt-6"
      >
        <DataTable
          caption="Webhook deliveries"
          rows={deliveries}
          empty={
            <EmptyState
              title="No deliveries"
              description="No endpoint of this mode takes this event type, or the sender has not reached it yet (it runs on every tick)."
            />
          }
          columns={[
            {
              header: "Endpoint",
              cell: (delivery) => (
                <Link
                  href={`/dashboard/webhooks/${delivery.webhookEndpointId}`}
                  className="break-all font-mono text-xs text-indigo-700 hover:underline"
                  data-testid="delivery-endpoint"
                >
                  {delivery.endpointUrl}
                </Link>
              ),
            },
            statusColumn(),
            {
              header: "Attempts",
              cell: (delivery) => (
                <span className="tabular-nums" data-testid="attempts">
                  {delivery.attempts}
                </span>
              ),
              align: "right",
            },
            {
              header: "Response",
              cell: (delivery) => (
                <span data-testid="response">
                  {delivery.lastResponseStatus !== null ? `HTTP ${delivery.lastResponseStatus}` : delivery.attempts ? "No response" : "—"}
                  {delivery.lastError && delivery.lastResponseStatus === null ? (
                    <span className="block max-w-[16rem] truncate text-xs text-red-700" title={delivery.lastError}>
                      {delivery.lastError}
                    </span>
                  ) : null}
                </span>
              ),
            },
            {
              header: "Last attempt",
              cell: (delivery) => (delivery.lastAttemptedAt ? formatDateTime(delivery.lastAttemptedAt) : "—"),
              hideOnMobile: true,
            },
            {
              header: "Next attempt",
              cell: (delivery) => (delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : "—"),
              hideOnMobile: true,
            },
            {
              header: "Actions",
              align: "right",
              pinned: true,
              cell: (delivery) =>
                hasRole(role, "developer") ? (
                  <ResendEventButton
                    eventId={event.id}
                    endpointId={delivery.webhookEndpointId}
                    disabled={delivery.endpointStatus !== "enabled"}
                    label={`Resend to ${delivery.endpointUrl}`}
                  />
                ) : (
                  "—"
                ),
            },
          ]}
        />
      </Section>
    </>
  );
}
