import { isCronAuthorized } from "@/lib/cron/authorize";
import { runTick } from "@/lib/cron/tick";
import { databaseReachable } from "@/lib/db";
import { databaseUnavailableResponse, errorResult } from "@/lib/http/errors";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  if (!isCronAuthorized(req)) {
    const { status, body } = errorResult("UNAUTHORIZED", "Missing or invalid cron secret.");
    return Response.json(body, { status });
  }
  // The database is known to be unreachable (or its trial connection fails): no task could run; the next tick tries again.
  if (!(await databaseReachable())) return databaseUnavailableResponse();
  const startedAt = Date.now();
  const summary = await runTick();
  return Response.json({ ok: true, durationMs: Date.now() - startedAt, ...summary });
}
