// GET /v1/events/stream (docs/webhooks.md): server-sent events of the key's
// merchant and mode. Authenticated and rate limited like every /v1 route (one token per connection);
// errors before the stream starts follow the error contract. lib/events/stream.ts has the logic.
import { openEventStream, parseTypeFilter, resolveLastEvent } from "@/lib/events/stream";
import { authenticateAndLimit } from "@/lib/http/authenticate";
import { toErrorResult } from "@/lib/http/errors";
import { createId } from "@/lib/ids";

export const dynamic = "force-dynamic";
/** On a serverless host the function may run this long (seconds); EVENT_STREAM_MAX_SECONDS should stay under it. */
export const maxDuration = 300;

export async function GET(req: Request): Promise<Response> {
  const requestId = createId("request");
  const headers = new Headers({ "Request-Id": requestId });
  try {
    const { principal } = await authenticateAndLimit(req, headers);
    const url = new URL(req.url);
    const filter = parseTypeFilter(url.searchParams.get("types"));
    const lastEventId = req.headers.get("last-event-id")?.trim() || null;
    const scope = { merchantId: principal.merchantId, livemode: principal.livemode };
    const resumeFrom = await resolveLastEvent(scope, lastEventId);
    const body = openEventStream({ scope, filter, lastEventId, signal: req.signal }, resumeFrom);
    headers.set("Content-Type", "text/event-stream; charset=utf-8");
    // no-transform: no compression or buffering on the way (Next's gzip skips it, so do proxies).
    headers.set("Cache-Control", "no-cache, no-transform");
    headers.set("X-Accel-Buffering", "no");
    return new Response(body, { status: 200, headers });
  } catch (err) {
    const result = toErrorResult(err, requestId);
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(result.body), { status: result.status, headers });
  }
}
