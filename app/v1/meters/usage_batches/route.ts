import { api } from "@/lib/http/api";
import { recordUsageBatch } from "@/lib/meters/record-usage-batch";
import * as operation from "./operations";

// Up to 1,000 post-paid usage records in one transaction of a few set-based statements, which also stores
// the request's Idempotency-Key response. Each record is deduplicated by its own idempotencyKey and
// answered in `results` (accepted, duplicate or refused); a malformed record refuses the whole batch (400).
export const POST = api(operation.POST, ({ tx, principal, body }) => recordUsageBatch(tx, principal, body.records));

export const dynamic = "force-dynamic";
