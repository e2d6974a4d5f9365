import { api, Reply } from "@/lib/http/api";
import { recordUsage } from "@/lib/meters/record-usage";
import { RecordUsageBody } from "@/lib/meters/schemas";

// 201 for a new record; 200 with the original record when its idempotencyKey was recorded before.
export const POST = api({ auth: "secret", body: RecordUsageBody, status: 201 }, async ({ tx, principal, params, body }) => {
  const { created, record } = await recordUsage(tx, principal, params.id, body);
  return created ? record : new Reply(200, record);
});
