// The operations of /v1/meters/{id}/usage (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { MeterUsageRecordObject, RecordUsageBody } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "recordMeterUsage",
  summary: "Record post-paid usage (201; 200 with the original record for a known idempotencyKey)",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: RecordUsageBody,
  status: 201,
  idempotent: false,
  transaction: false,
  db: "sql",
  bodyName: "MeterUsageParams",
  responses: { 201: MeterUsageRecordObject, 200: MeterUsageRecordObject },
  sdk: {
    resource: "meters",
    method: "recordUsage",
    doc: "Post-paid usage; `idempotencyKey` in the body makes a retried record count once.",
  },
});
