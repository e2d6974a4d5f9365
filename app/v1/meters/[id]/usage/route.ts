import { api, Reply } from "@/lib/http/api";
import { recordUsage } from "@/lib/meters/record-usage";
import * as operation from "./operations";

// One atomic statement, deduplicated by the body's idempotencyKey (no generic Idempotency-Key record
// needed). 201 for a new record; 200 with the original one when its idempotencyKey was recorded before.
export const POST = api(operation.POST, async ({ tx, principal, params, body }) => {
  const { created, record } = await recordUsage(tx, principal, params.id, body);
  return created ? record : new Reply(200, record);
});

export const dynamic = "force-dynamic";
