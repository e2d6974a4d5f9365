import { isCronAuthorized } from "@/lib/cron/authorize";
import { runTick } from "@/lib/cron/tick";
import { errorResult } from "@/lib/http/errors";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  if (!isCronAuthorized(req)) {
    const { status, body } = errorResult("UNAUTHORIZED", "Missing or invalid cron secret.");
    return Response.json(body, { status });
  }
  const startedAt = Date.now();
  const summary = await runTick();
  return Response.json({ ok: true, durationMs: Date.now() - startedAt, ...summary });
}
