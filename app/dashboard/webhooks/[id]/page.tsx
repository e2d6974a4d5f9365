// One webhook endpoint: its settings, rotate / disable / delete, and the log of delivery attempts (status,
// response code, duration, error, next retry) with "Resend" per event.
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge, statusColumn } from "@/components/dashboard/StatusBadge";
import { DeleteEndpointButton } from "@/components/dashboard/webhooks/DeleteEndpointButton";
import { EditEndpointButton } from "@/components/dashboard/webhooks/EditEndpointButton";
import { EndpointStatusButton } from "@/components/dashboard/webhooks/EndpointStatusButton";
import { ResendEventButton } from "@/components/dashboard/webhooks/ResendEventButton";
import { RotateSecretButton } from "@/components/dashboard/webhooks/RotateSecretButton";
import { SendTestEventButton } from "@/components/dashboard/webhooks/SendTestEventButton";
import { getDb } from "@/lib/db";
import { EVENT_TYPES } from "@/lib/events/types";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound, pageId } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { listDeliveryAttempts, listQueuedDeliveries } from "@/lib/webhooks/deliveries";
import { endpointHealth } from "@/lib/webhooks/endpoint-health";
import { ReplayFailedButton } from "@/components/dashboard/webhooks/ReplayFailedButton";
import { getEndpoint } from "@/lib/webhooks/endpoints";

export const metadata: Metadata = { title: "Webhook endpoint" };

const PAGE_SIZE = 25;

export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: SearchParams;
}) {
  const { scope, role } = await requireDashboard();
  const canEdit = hasRole(role, "developer");
  const [id, { startingAfter }] = await Promise.all([pageId(params), listPageQuery(searchParams, [])]);
  const db = getDb();
  const [endpoint, attempts, queued, health] = await orNotFound(
    Promise.all([
      getEndpoint(db, scope, id),
      listDeliveryAttempts(db, scope, id, { limit: PAGE_SIZE, startingAfter }),
      listQueuedDeliveries(db, scope, id),
      endpointHealth(db, scope, id),
    ]),
  );
  const enabled = endpoint.status === "enabled";
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/webhooks" className="font-medium text-indigo-700 hover:underline">
            Webhooks
          </Link>
        }
        title={
          <span className="break-all font-mono text-xl" data-testid="endpoint-url">
            {endpoint.url}
          </span>
        }
        description={endpoint.description ?? undefined}
        actions={
          canEdit ? (
            <>
              <SendTestEventButton
                endpointId={endpoint.id}
                eventTypes={endpoint.enabledEvents.length ? endpoint.enabledEvents : EVENT_TYPES}
                disabled={!enabled}
                liveMode={scope.livemode}
              />
              <EditEndpointButton endpoint={endpoint} />
              <RotateSecretButton endpointId={endpoint.id} />
              <EndpointStatusButton endpointId={endpoint.id} status={endpoint.status} />
              <ReplayFailedButton endpointId={endpoint.id} disabled={!enabled} />
              <DeleteEndpointButton endpointId={endpoint.id} url={endpoint.url} />
            </>
          ) : null
        }
      />
      <Section title="Details">
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium text-slate-600">Status</dt>
          <dd>
            <StatusBadge status={endpoint.status} />
            {!enabled ? <span className="ml-2 text-slate-600">No events are queued for it; enable it to receive them again.</span> : null}
          </dd>
          <dt className="font-medium text-slate-600">Endpoint ID</dt>
          <dd className="font-mono text-xs text-slate-800">{endpoint.id}</dd>
          <dt className="font-medium text-slate-600">Events</dt>
          <dd data-testid="endpoint-events">
            {endpoint.enabledEvents.length ? (
              <ul className="flex flex-wrap gap-1.5">
                {endpoint.enabledEvents.map((type) => (
                  <li key={type} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">
                    {type}
                  </li>
                ))}
              </ul>
            ) : (
              "All event types"
            )}
          </dd>
          <dt className="font-medium text-slate-600">Signing secret</dt>
          <dd className="text-slate-700" data-testid="secret-status">
            Shown only when the endpoint is added or the secret is rotated.
            {endpoint.previousSecretExpiresAt
              ? ` The previous secret also signs until ${formatDateTime(endpoint.previousSecretExpiresAt)}.`
              : ""}
          </dd>
          <dt className="font-medium text-slate-600">Created</dt>
          <dd className="text-slate-800">{formatDateTime(endpoint.createdAt)}</dd>
          <dt className="font-medium text-slate-600">Last 24 hours</dt>
          <dd className="text-slate-800" data-testid="endpoint-health">
            {health.attempts ? (
              <>
                <span data-testid="success-rate">{(100 * (health.successRate ?? 0)).toFixed(1)}%</span> of {health.attempts} attempts
                succeeded; p50 latency <span data-testid="p50-latency">{health.p50LatencyMs} ms</span>
              </>
            ) : (
              "No attempts."
            )}
          </dd>
        </dl>
      </Section>
      {queued.length ? (
        <Section
          title="Queued"
          description="Waiting for the sender, which runs on every tick of the service's cron."
          flush
          className="mt-6"
        >
          <DataTable
            caption="Queued deliveries"
            rows={queued}
            empty={null}
            columns={[
              {
                header: "Event",
                cell: (delivery) => (
                  <span className="font-mono text-xs text-slate-900" data-testid="event-type">
                    {delivery.eventType}
                  </span>
                ),
              },
              {
                header: "Event ID",
                cell: (delivery) => (
                  <Link href={`/dashboard/events/${delivery.eventId}`} className="font-mono text-xs text-indigo-700 hover:underline">
                    {delivery.eventId}
                  </Link>
                ),
                hideOnMobile: true,
              },
              statusColumn(),
              { header: "Queued", cell: (delivery) => formatDateTime(delivery.queuedAt), align: "right" },
            ]}
          />
        </Section>
      ) : null}
      <Section
        title="Deliveries"
        description="Every attempt, newest first. Failed deliveries are retried on a back-off schedule for about 3 days."
        flush
        className="mt-6"
      >
        <DataTable
          caption="Delivery attempts"
          rows={attempts.data}
          empty={<EmptyState title="No deliveries yet" description="Attempts appear here as events are sent to this endpoint." />}
          columns={[
            {
              header: "Event",
              cell: (attempt) => (
                <span className="flex flex-col">
                  <span className="font-mono text-xs text-slate-900" data-testid="event-type">
                    {attempt.eventType}
                  </span>
                  <Link href={`/dashboard/events/${attempt.eventId}`} className="font-mono text-[11px] text-indigo-700 hover:underline">
                    {attempt.eventId}
                  </Link>
                </span>
              ),
            },
            statusColumn(),
            {
              header: "Response",
              cell: (attempt) => (
                <span data-testid="response">
                  {attempt.responseStatus !== null ? `HTTP ${attempt.responseStatus}` : "No response"}
                  {attempt.error && attempt.responseStatus === null ? (
                    <span className="block max-w-[16rem] truncate text-xs text-red-700" title={attempt.error}>
                      {attempt.error}
                    </span>
                  ) : null}
                </span>
              ),
            },
            {
              header: "Attempt",
              cell: (attempt) => (
                <span className="tabular-nums" data-testid="attempt">
                  #{attempt.attempt}
                </span>
              ),
              align: "right",
              hideOnMobile: true,
            },
            {
              header: "Duration",
              cell: (attempt) => (
                <span className="tabular-nums" data-testid="duration">
                  {attempt.durationMs} ms
                </span>
              ),
              align: "right",
              hideOnMobile: true,
            },
            { header: "Attempted", cell: (attempt) => formatDateTime(attempt.attemptedAt), hideOnMobile: true },
            {
              header: "Next attempt",
              cell: (attempt) => (
                <span data-testid="next-attempt">{attempt.nextAttemptAt ? formatDateTime(attempt.nextAttemptAt) : "—"}</span>
              ),
              hideOnMobile: true,
            },
            {
              header: "Actions",
              align: "right",
              pinned: true,
              cell: (attempt) =>
                canEdit ? <ResendEventButton eventId={attempt.eventId} endpointId={endpoint.id} disabled={!enabled} /> : "—",
            },
          ]}
        />
        <NextPageLink
          basePath={`/dashboard/webhooks/${endpoint.id}`}
          query={{ startingAfter }}
          lastId={attempts.data.at(-1)?.id}
          hasMore={attempts.hasMore}
        />
      </Section>
    </>
  );
}
