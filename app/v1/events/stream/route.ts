// GET /v1/events/stream (docs/webhooks.md): server-sent events of the key's
// merchant and mode. Authenticated and rate limited like every /v1 route (one token per connection);
// errors before the stream starts follow the error contract. lib/events/stream.ts has the logic.
import { EventStreamQuery } from "@/lib/events/schemas";
import { openEventStream, parseTypeFilter, resolveLastEvent } from "@/lib/events/stream";
import { api } from "@/lib/http/api";

export const dynamic = "force-dynamic";
/** On a serverless host the function may run this long (seconds); EVENT_STREAM_MAX_SECONDS should stay under it. */
export const maxDuration = 300;

export const GET = api({ auth: "secret", permission: ["events", "read"], query: EventStreamQuery }, async ({ principal, query, req }) => {
  const filter = parseTypeFilter(query.types ?? null);
  const lastEventId = req.headers.get("last-event-id")?.trim() || null;
  const scope = { merchantId: principal.merchantId, livemode: principal.livemode };
  const resumeFrom = await resolveLastEvent(scope, lastEventId);
  const body = openEventStream({ scope, filter, lastEventId, signal: req.signal }, resumeFrom);
  // no-transform: no compression or buffering on the way (Next's gzip skips it, so do proxies).
  const headers = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
  };
  return new Response(body, { status: 200, headers });
});
