import { env } from "@/lib/env";
import { api } from "@/lib/http/api";
import { recordUsageBatch } from "@/lib/meters/record-usage-batch";
import { UsageBatchBody } from "@/lib/meters/schemas";

// Up to 1,000 post-paid usage records in one transaction of a few set-based statements, which also stores
// the request's Idempotency-Key response. Each record is deduplicated by its own idempotencyKey and
// answered in `results` (accepted, duplicate or refused); a malformed record refuses the whole batch (400).
export const POST = api(
  // 1,000 records with long keys pass the default 256 KiB body limit: this route takes up to 1 MiB.
  {
    auth: "secret",
    permission: ["meters", "write"],
    body: UsageBatchBody,
    db: "sql",
    bodyLimitBytes: Math.max(env.BODY_LIMIT_BYTES, 1024 * 1024),
  },
  ({ tx, principal, body }) => recordUsageBatch(tx, principal, body.records),
);

export const dynamic = "force-dynamic";
