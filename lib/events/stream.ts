// GET /v1/events/stream: the events of one merchant and mode as server-sent events (docs/webhooks.md,
// "Live events for developers"): `id:` the event id, `event:` its type, `data:` the event as GET /v1/events/:id
// returns it. With Last-Event-ID it first sends every later event, then goes live.
//
// Each stream is one of this process's open streams in lib/events/stream-hub.ts, which reads the events
// table for all of them (one loop, by cursor) and hands each its rows: order and exactly-once resumption are
// explained there. This file is one stream's side: its frames, its queue, and its end.
//
// Bounds. A stream holds a lease (lib/events/stream-leases.ts: the per-key and per-merchant caps) until it
// ends. It ends after EVENT_STREAM_MAX_SECONDS (a comment says so; the client resumes with Last-Event-ID).
// Its queue (what the client has not taken yet) holds at most EVENT_STREAM_MAX_QUEUE_BYTES (plus one frame):
// full, the stream takes no more rows (they stay in the table) until its client has taken half, so a slow
// reader is paced. Full with nothing taken for a whole keep-alive period, the client has stopped reading:
// the stream is dropped and its queue freed at once. Frames are whole events, so such a client, if it reads
// again, has every event up to some id and resumes from it: nothing is lost.
import { sql, statement } from "../db";
import { env } from "../env";
import { ValidationError } from "../errors";
import type { Scope } from "../scope";
import {
  addStream,
  liveCursor,
  removeStream,
  reportQueued,
  wakeScope,
  type Cursor,
  type EndReason,
  type EventRow,
  type HubStream,
} from "./stream-hub";
import { releaseStreamLease } from "./stream-leases";
import { EVENT_TYPES } from "./types";

const FIND_EVENT = statement(
  "stream_find_event",
  `SELECT xid::text AS xid, seq::text AS seq FROM events WHERE merchant_id = $1 AND livemode = $2 AND id = $3`,
);

/** `?types=`: exact types, `prefix.*` wildcards, or `*`; empty or absent = every type. */
export function parseTypeFilter(raw: string | null): ((type: string) => boolean) | null {
  if (raw === null || raw.trim() === "") return null;
  const patterns = raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const fields: { path: string; message: string }[] = [];
  patterns.forEach((pattern, i) => {
    const ok =
      pattern === "*" ||
      (pattern.endsWith("*")
        ? EVENT_TYPES.some((t) => t.startsWith(pattern.slice(0, -1)))
        : (EVENT_TYPES as readonly string[]).includes(pattern));
    if (!ok)
      fields.push({
        path: `types.${i}`,
        message: `unknown event type or pattern '${pattern}'; types: ${EVENT_TYPES.join(", ")}; a trailing * matches a prefix`,
      });
  });
  if (fields.length) throw new ValidationError("Invalid types filter.", fields);
  if (patterns.includes("*")) return null;
  return (type) => patterns.some((p) => (p.endsWith("*") ? type.startsWith(p.slice(0, -1)) : type === p));
}

/** The SSE frame of one event; `data:` is GET /v1/events/:id's body (the stored JSON object spliced in). */
function frame(row: EventRow): string {
  const body = `{"id":${JSON.stringify(row.id)},"object":"event","type":${JSON.stringify(row.type)},"data":${row.data},"livemode":${row.livemode},"createdAt":"${row.created_at.toISOString()}"}`;
  return `id: ${row.id}\nevent: ${row.type}\ndata: ${body}\n\n`;
}

export interface StreamOptions {
  scope: Scope;
  filter: ((type: string) => boolean) | null;
  signal: AbortSignal;
  /** Its slot among the caps (released when the stream ends). */
  leaseId: string;
}

/**
 * Where the stream starts, checked before the response starts: after Last-Event-ID (an unknown id is a 400,
 * not a silent gap), else after everything of transactions that have already ended.
 */
export async function resolveStreamStart(scope: Scope, lastEventId: string | null): Promise<Cursor> {
  if (!lastEventId) return liveCursor();
  const [row] = await sql().rows<Cursor>(FIND_EVENT, [scope.merchantId, scope.livemode, lastEventId]);
  if (!row)
    throw new ValidationError(`Last-Event-ID ${lastEventId} is not an event of this account and mode.`, [
      { path: "Last-Event-ID", message: "unknown event" },
    ]);
  return row;
}

const encoder = new TextEncoder();
/** The comment a stream ends with, when the server ends it while the client still reads. */
const FAREWELL: Partial<Record<EndReason, string>> = {
  max_seconds: "this stream has reached EVENT_STREAM_MAX_SECONDS",
  lease_lost: "this stream's slot expired",
};

class EventStream implements HubStream {
  readonly body: ReadableStream<Uint8Array>;
  readonly scope: Scope;
  readonly leaseId: string;
  behind = false;
  closed = false;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  /** The queue's bound: full, the stream takes no more rows until its client has taken half. */
  private readonly bound = env.EVENT_STREAM_MAX_QUEUE_BYTES;
  private enqueued = 0;
  /** Bytes the client had taken at the last keep-alive (a stalled client takes none). */
  private takenAtKeepAlive = 0;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly options: StreamOptions,
    public cursor: Cursor,
  ) {
    this.scope = options.scope;
    this.leaseId = options.leaseId;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.controller = controller),
        // The client took some: a stream waiting on it reads on once half its queue is free.
        pull: () => {
          if (this.behind && !this.closed && this.queuedBytes() <= this.bound / 2) wakeScope(this.scope);
        },
        cancel: () => this.end("client"),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: this.bound }),
    );
    const seconds = env.EVENT_STREAM_MAX_SECONDS;
    this.write(`retry: 1000\n: connected${seconds > 0 ? `; this stream ends after ${seconds} s, resume with Last-Event-ID` : ""}\n\n`);
    if (seconds > 0) {
      const limit = setTimeout(() => this.end("max_seconds"), seconds * 1000);
      this.cleanups.push(() => clearTimeout(limit));
    }
    const onAbort = () => this.end("client");
    options.signal.addEventListener("abort", onAbort);
    this.cleanups.push(() => options.signal.removeEventListener("abort", onAbort));
  }

  queuedBytes(): number {
    return this.closed ? 0 : this.bound - (this.controller.desiredSize ?? this.bound);
  }

  roomBytes(): number {
    return Math.max(0, this.bound - this.queuedBytes());
  }

  hasRoom(): boolean {
    return this.roomBytes() > 0;
  }

  private write(text: string): boolean {
    if (this.closed) return false;
    const bytes = encoder.encode(text);
    this.controller.enqueue(bytes);
    this.enqueued += bytes.byteLength;
    reportQueued(this.queuedBytes());
    return true;
  }

  deliver(row: EventRow): boolean {
    if (this.closed || !this.hasRoom()) return false;
    this.cursor = { xid: row.xid, seq: row.seq };
    if (!this.options.filter || this.options.filter(row.type)) this.write(frame(row));
    return true;
  }

  keepAlive(): void {
    const taken = this.enqueued - this.queuedBytes();
    if (this.hasRoom()) this.write(`: keep-alive\n\n`);
    // Full and nothing taken for a whole keep-alive period: the client stopped reading.
    else if (taken === this.takenAtKeepAlive) return this.end("too_slow");
    this.takenAtKeepAlive = taken;
  }

  end(reason: EndReason): void {
    if (this.closed) return;
    const farewell = FAREWELL[reason];
    if (farewell && !this.write(`: ${farewell}; reconnect with Last-Event-ID\n\n`)) return; // dropped meanwhile
    this.closed = true;
    for (const cleanup of this.cleanups) cleanup();
    removeStream(this, reason);
    releaseStreamLease(this.leaseId).catch((err) => console.error("event stream lease:", err instanceof Error ? err.message : err));
    try {
      // A client that does not read gets no more: its queue is dropped at once (an AbortError, which Next's
      // response pipe ends quietly). Otherwise what is queued still goes out, then the end.
      if (reason === "too_slow") this.controller.error(new DOMException("The client does not read its event stream.", "AbortError"));
      else this.controller.close();
    } catch {
      // already closed or errored by the client's disconnect
    }
  }
}

/** Opens a stream at `cursor` (resolveStreamStart) among this process's open streams. */
export function openEventStream(options: StreamOptions, cursor: Cursor): ReadableStream<Uint8Array> {
  const stream = new EventStream(options, cursor);
  if (options.signal.aborted) stream.end("client");
  else addStream(stream);
  return stream.body;
}
