// The operations of /v1/meters/{id}/usage_summary (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { MeterUsageSummaryObject, UsageSummaryQuery } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getMeterUsageSummary",
  summary: "A meter's usage by hour or day",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "read"],
  query: UsageSummaryQuery,
  db: "sql",
  responses: { 200: MeterUsageSummaryObject },
  sdk: {
    resource: "meters",
    method: "usageSummary",
    params: "params: T.MeterUsageSummaryParams = {}",
    doc: "The meter's usage by hour or day (UTC) over a window (default: the last 24 hours by hour, 30 days by day; at most 31 days by hour, 366 by day): every bucket, empty ones as zeros, oldest first.",
  },
});
