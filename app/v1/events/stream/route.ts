// GET /v1/events/stream (docs/webhooks.md): server-sent events of the key's merchant and mode. Rate limited like every
// /v1 route, then a slot among the open-stream caps (429 too_many_streams). lib/events/ has the logic.
import { openEventStream, parseTypeFilter, resolveStreamStart } from "@/lib/events/stream";
import { claimStreamLease, TooManyStreamsError } from "@/lib/events/stream-leases";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const dynamic = "force-dynamic";
/** On a serverless host the function may run this long (seconds); EVENT_STREAM_MAX_SECONDS should stay under it. */
export const maxDuration = 300;

// no-transform: no compression or buffering on the way (Next's gzip skips it, so do proxies).
const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

export const GET = api(operation.GET, async ({ principal, query, req, headers }) => {
  const filter = parseTypeFilter(query.types ?? null);
  const scope = { merchantId: principal.merchantId, livemode: principal.livemode };
  const cursor = await resolveStreamStart(scope, req.headers.get("last-event-id")?.trim() || null);
  const leaseId = await claimStreamLease(principal).catch((err) => {
    if (err instanceof TooManyStreamsError) headers.set("Retry-After", String(err.retryAfterSeconds));
    throw err;
  });
  return new Response(openEventStream({ scope, filter, signal: req.signal, leaseId }, cursor), { status: 200, headers: SSE_HEADERS });
});
