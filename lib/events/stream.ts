// GET /v1/events/stream: the events of one merchant and mode as server-sent events (docs/webhooks.md,
// "Live events for developers"): `id:` the event id, `event:` its type, `data:` the event as GET /v1/events/:id
// returns it. With Last-Event-ID it first replays every later event, then goes live.
//
// Order and gaps. Event ids are random, and the sequence (`seq`) is taken at INSERT, not at commit: a
// transaction that inserted seq 10 may commit after one that inserted seq 11. So the stream never uses
// "seq > last sent" alone. Live, it reads every event of the merchant and mode created in the last
// WINDOW_MS (longer than any transaction may stay open) and sends those it has not sent yet (a set of ids
// sent within the window); an event that commits late is still inside the window when it becomes visible.
// Replay after Last-Event-ID L sends, in seq order, every event with a higher seq, plus those of the
// window before L (they may have committed after L was sent): at least once, so a client can see an event
// twice after a reconnect, never miss one; `npm run listen` drops the repeats by id.
//
// Wake-ups: in the long-running server, a commit's NOTIFY (lib/events/listener.ts) reads at once, and a
// slow poll covers lost notifications; where nothing listens (a serverless host) it polls every
// EVENT_STREAM_POLL_MS. Keep-alive comments every EVENT_STREAM_KEEPALIVE_MS (<= 15 s).
import { sql, statement } from "../db";
import { env } from "../env";
import { ValidationError } from "../errors";
import type { Scope } from "../scope";
import { isListening, subscribeToEvents } from "./listener";
import { EVENT_TYPES } from "./types";

/** Longer than any transaction that inserts events may stay open (Prisma's limit is 15 s). */
export const WINDOW_MS = 30_000;
const PAGE = 500;
/** With a listening connection, the poll that covers lost notifications. */
const SAFETY_POLL_MS = 5_000;

interface Row {
  id: string;
  type: string;
  data: string;
  livemode: boolean;
  created_at: Date;
  seq: string;
}

const COLUMNS = "id, type, data::text AS data, livemode, created_at, seq::text AS seq";
const FIND_EVENT = statement(
  "stream_find_event",
  `SELECT created_at, seq::text AS seq FROM events WHERE merchant_id = $1 AND livemode = $2 AND id = $3`,
);
const AFTER_SEQ = statement(
  "stream_after_seq",
  `SELECT ${COLUMNS} FROM events WHERE merchant_id = $1 AND livemode = $2 AND seq > $3::bigint ORDER BY seq LIMIT ${PAGE}`,
);
const WINDOW = statement(
  "stream_window",
  `SELECT ${COLUMNS} FROM events WHERE merchant_id = $1 AND livemode = $2 AND created_at > $3 AND NOT (id = ANY($4::text[]))
    ORDER BY seq LIMIT ${PAGE}`,
);
const WINDOW_IDS = statement(
  "stream_window_ids",
  `SELECT id, created_at FROM events WHERE merchant_id = $1 AND livemode = $2 AND created_at > $3`,
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
function frame(row: Row): string {
  const body = `{"id":${JSON.stringify(row.id)},"object":"event","type":${JSON.stringify(row.type)},"data":${row.data},"livemode":${row.livemode},"createdAt":"${row.created_at.toISOString()}"}`;
  return `id: ${row.id}\nevent: ${row.type}\ndata: ${body}\n\n`;
}

export interface StreamOptions {
  scope: Scope;
  filter: ((type: string) => boolean) | null;
  lastEventId: string | null;
  signal: AbortSignal;
}

/** Checks Last-Event-ID before the response starts (an unknown id is a 400, not a silent gap). */
export async function resolveLastEvent(scope: Scope, lastEventId: string | null): Promise<{ createdAt: Date; seq: string } | null> {
  if (!lastEventId) return null;
  const [row] = await sql().rows<{ created_at: Date; seq: string }>(FIND_EVENT, [scope.merchantId, scope.livemode, lastEventId]);
  if (!row)
    throw new ValidationError(`Last-Event-ID ${lastEventId} is not an event of this account and mode.`, [
      { path: "Last-Event-ID", message: "unknown event" },
    ]);
  return { createdAt: row.created_at, seq: row.seq };
}

export function openEventStream(options: StreamOptions, resumeFrom: { createdAt: Date; seq: string } | null): ReadableStream<Uint8Array> {
  const { scope, filter, signal } = options;
  const encoder = new TextEncoder();
  /** Event id -> created_at (ms) of everything sent (or already past at connect) inside the window. */
  const sent = new Map<string, number>();
  let closed = false;
  let reading = false;
  let again = false;
  const cleanups: (() => void)[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  counter[OPEN] = openStreamCount() + 1;
  const close = () => {
    if (closed) return;
    closed = true;
    counter[OPEN] = openStreamCount() - 1;
    for (const cleanup of cleanups) cleanup();
    try {
      controller.close();
    } catch {
      // already closed or errored by the client's disconnect
    }
  };
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const send = (row: Row) => {
    sent.set(row.id, row.created_at.getTime());
    if (!filter || filter(row.type)) write(frame(row));
  };

  const prune = (floor: number) => {
    for (const [id, at] of sent) if (at <= floor - 1_000) sent.delete(id);
  };

  /** One read of the window: everything there not sent yet, in seq order. */
  const readWindow = async () => {
    if (reading) return void (again = true);
    reading = true;
    try {
      do {
        again = false;
        const floor = Date.now() - WINDOW_MS;
        prune(floor);
        let rows: Row[];
        do {
          rows = await sql().rows<Row>(WINDOW, [scope.merchantId, scope.livemode, new Date(floor), [...sent.keys()]]);
          if (closed) return;
          for (const row of rows) send(row);
        } while (rows.length === PAGE);
      } while (again && !closed);
    } catch (err) {
      console.error("event stream read:", err instanceof Error ? err.message : err);
    } finally {
      reading = false;
    }
  };

  const start = async () => {
    write(`retry: 1000\n: connected\n\n`);
    if (resumeFrom) {
      // Replay: the window before Last-Event-ID (late commits) and every later event, in seq order.
      sent.set(options.lastEventId!, resumeFrom.createdAt.getTime()); // the client has that one
      const floor = new Date(resumeFrom.createdAt.getTime() - WINDOW_MS);
      const before = await sql().rows<Row>(WINDOW, [scope.merchantId, scope.livemode, floor, []]);
      for (const row of before) if (BigInt(row.seq) < BigInt(resumeFrom.seq) && !sent.has(row.id)) send(row);
      let cursor = resumeFrom.seq;
      for (;;) {
        const rows = await sql().rows<Row>(AFTER_SEQ, [scope.merchantId, scope.livemode, cursor]);
        if (closed) return;
        for (const row of rows) if (!sent.has(row.id)) send(row);
        if (rows.length < PAGE) break;
        cursor = rows[rows.length - 1].seq;
      }
    } else {
      // Live only: what is already visible is the past.
      const past = await sql().rows<{ id: string; created_at: Date }>(WINDOW_IDS, [
        scope.merchantId,
        scope.livemode,
        new Date(Date.now() - WINDOW_MS),
      ]);
      for (const row of past) sent.set(row.id, row.created_at.getTime());
    }
    if (closed) return;
    // Live: on every commit of this merchant and mode, on (re)connection of the listener, and on a timer.
    cleanups.push(
      subscribeToEvents((signal) => {
        if (signal === null || (signal.merchantId === scope.merchantId && signal.livemode === scope.livemode)) void readWindow();
      }),
    );
    const poll = setInterval(() => void readWindow(), isListening() ? SAFETY_POLL_MS : env.EVENT_STREAM_POLL_MS);
    cleanups.push(() => clearInterval(poll));
    await readWindow(); // anything that committed during the replay
  };

  const keepAlive = setInterval(() => write(`: keep-alive\n\n`), env.EVENT_STREAM_KEEPALIVE_MS);
  cleanups.push(() => clearInterval(keepAlive));
  if (env.EVENT_STREAM_MAX_SECONDS > 0) {
    const limit = setTimeout(close, env.EVENT_STREAM_MAX_SECONDS * 1000);
    cleanups.push(() => clearTimeout(limit));
  }
  const onAbort = () => close();
  signal.addEventListener("abort", onAbort);
  cleanups.push(() => signal.removeEventListener("abort", onAbort));

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      start().catch((err) => {
        console.error("event stream:", err instanceof Error ? err.message : err);
        close();
      });
    },
    cancel() {
      close();
    },
  });
}

const OPEN = Symbol.for("aps.events.open-streams");
const counter = globalThis as unknown as Record<symbol, number | undefined>;

/** Streams open in this process (the cron tick's summary reports it: a disconnect must bring it down). */
export function openStreamCount(): number {
  return counter[OPEN] ?? 0;
}
