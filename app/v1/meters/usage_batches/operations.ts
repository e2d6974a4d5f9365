// The operations of /v1/meters/usage_batches (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { env } from "@/lib/env";
import { MeterUsageBatchObject, UsageBatchBody } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "recordMeterUsageBatch",
  summary: "Record up to 1,000 post-paid usage records at once",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: UsageBatchBody,
  db: "sql",
  // 1,000 records with long keys pass the default 256 KiB body limit: this route takes up to 1 MiB.
  bodyLimitBytes: Math.max(env.BODY_LIMIT_BYTES, 1024 * 1024),
  bodyName: "MeterUsageBatchParams",
  responses: { 200: MeterUsageBatchObject },
  sdk: {
    resource: "meters",
    method: "recordUsageBatch",
    params: "records: T.MeterUsageBatchRecord[]",
    body: "{ records }",
    doc: "Post-paid usage in one request: 1..1,000 records across your meters, each counted once by its (meterId, idempotencyKey) -> a result per record (accepted, duplicate or refused with its error). A malformed record is a ServiceError 400 VALIDATION_ERROR and nothing is counted. Retries (the SDK's own, with the same Idempotency-Key, or yours) never count a record twice.",
  },
});
