// The one reader of the events table for every open stream of this process (GET /v1/events/stream): a
// commit's notification (lib/events/listener.ts), a catch-up timer and a stream's own drain mark its
// merchant and mode dirty, and one loop reads each dirty one by cursor and fans the rows out to its
// streams. Streams at the same cursor (every caught-up stream of a merchant and mode) share one read; a
// stream replaying from Last-Event-ID reads its own pages until it catches up. One timer renews the
// process's stream leases, one sends keep-alive comments to all streams.
//
// The cursor is (xid, seq): the inserting transaction's id, then the insert order. A read sends only events
// whose transaction is older than every transaction still running (pg_snapshot_xmin): those are all
// committed or gone, so an event that becomes visible later always sorts after every event already sent,
// and the cursor (the last event sent, or Last-Event-ID) never skips one. Events of younger transactions
// wait for the older ones to end (normally milliseconds); the hub looks again shortly.
import { sql, statement } from "../db";
import { env } from "../env";
import type { Scope } from "../scope";
import { isListening, subscribeToEvents } from "./listener";
import { leaseRenewalMs, renewStreamLeases } from "./stream-leases";
import { globalSingleton } from "../global-singleton";

/** A position in the stream's order: every event at or before it has been sent. */
export interface Cursor {
  xid: string;
  seq: string;
}

export interface EventRow extends Cursor {
  id: string;
  type: string;
  data: string;
  livemode: boolean;
  created_at: Date;
  /** Older than every running transaction: safe to send. */
  ready: boolean;
  /** Rows of the page before the cut by bytes. */
  page_rows: number;
}

/** What the hub needs of an open stream (lib/events/stream.ts). */
export interface HubStream {
  readonly scope: Scope;
  readonly leaseId: string;
  cursor: Cursor;
  /** Rows wait for it (a full page, or its queue filled up): read again when its client has taken some. */
  behind: boolean;
  readonly closed: boolean;
  /** Bytes its client has not taken yet, and how many more its queue takes. */
  queuedBytes(): number;
  roomBytes(): number;
  hasRoom(): boolean;
  /** Sends one row (or skips it by the type filter) and moves the cursor; false: no room (or closed), not taken. */
  deliver(row: EventRow): boolean;
  /** Sends a keep-alive comment; drops a stream whose queue is full and whose client took nothing since the last. */
  keepAlive(): void;
  end(reason: EndReason): void;
}

export type EndReason = "client" | "max_seconds" | "too_slow" | "lease_lost";

export const PAGE = 200;
/** With a listening connection, the read that covers lost notifications. */
const SAFETY_POLL_MS = 5_000;
const PENDING_RETRY_MS = { first: 20, max: 1_000 };

// One page after the cursor, cut where the rows stop fitting in `budget` bytes (the room of the readers'
// queues: a paced stream is not sent a page it cannot take); `page_rows` tells whether rows were cut. The last
// ORDER BY names sized's columns: unqualified, it would sort by the output's text ("10" < "9").
const READ = statement(
  "stream_read_after",
  `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon),
   page AS (
     SELECT e.id, e.type, e.data::text AS data, e.livemode, e.created_at, e.xid, e.seq, e.xid < h.horizon AS ready
       FROM events e, h
      WHERE e.merchant_id = $1 AND e.livemode = $2 AND (e.xid, e.seq) > ($3::xid8, $4::bigint)
      ORDER BY e.xid, e.seq LIMIT ${PAGE}
   ),
   sized AS (
     SELECT *, sum(octet_length(data)) OVER (ORDER BY xid, seq) - octet_length(data) AS bytes_before, count(*) OVER () AS page_rows
       FROM page
   )
   SELECT id, type, data, livemode, created_at, xid::text AS xid, seq::text AS seq, ready, page_rows::int AS page_rows
     FROM sized WHERE bytes_before < $5 ORDER BY sized.xid, sized.seq`,
);
const HORIZON = statement("stream_horizon", `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xid`);

/** Where a stream without Last-Event-ID starts: after everything of transactions already ended. */
export async function liveCursor(): Promise<Cursor> {
  const [row] = await sql().rows<{ xid: string }>(HORIZON, []);
  return { xid: row.xid, seq: "0" };
}

export interface StreamStats {
  open: number;
  queuedBytes: number;
  /** The most bytes any stream of this process had queued at once. */
  peakQueuedBytes: number;
  dropped: number;
  endedByMaxSeconds: number;
  leasesLost: number;
}

interface Hub {
  topics: Map<string, Set<HubStream>>;
  dirty: Set<string>;
  pending: Set<string>;
  pumping: boolean;
  retryDelay: number;
  retryTimer?: NodeJS.Timeout;
  pollTimer?: NodeJS.Timeout;
  intervals: NodeJS.Timeout[];
  /** Set while any stream is open: the subscription to the commit listener. */
  unsubscribe?: () => void;
  stats: Omit<StreamStats, "open" | "queuedBytes">;
}

function hub(): Hub {
  return globalSingleton<Hub>("events.stream-hub", () => ({
    topics: new Map(),
    dirty: new Set(),
    pending: new Set(),
    pumping: false,
    retryDelay: PENDING_RETRY_MS.first,
    intervals: [],
    stats: { peakQueuedBytes: 0, dropped: 0, endedByMaxSeconds: 0, leasesLost: 0 },
  }));
}

const topicOf = (scope: Scope) => `${scope.merchantId}:${scope.livemode ? "live" : "test"}`;

function allStreams(): HubStream[] {
  return [...hub().topics.values()].flatMap((set) => [...set]);
}

export function addStream(stream: HubStream): void {
  const h = hub();
  const topic = topicOf(stream.scope);
  if (!h.topics.has(topic)) h.topics.set(topic, new Set());
  h.topics.get(topic)!.add(stream);
  if (!h.unsubscribe) start(h);
  wake(topic);
}

export function removeStream(stream: HubStream, reason: EndReason): void {
  const h = hub();
  const topic = topicOf(stream.scope);
  const set = h.topics.get(topic);
  if (!set?.delete(stream)) return;
  if (set.size === 0) h.topics.delete(topic);
  if (reason === "too_slow") h.stats.dropped++;
  if (reason === "max_seconds") h.stats.endedByMaxSeconds++;
  if (reason === "lease_lost") h.stats.leasesLost++;
  if (h.topics.size === 0) stop(h);
}

/** A stream's queue after an enqueue: the hub keeps the peak for the tick's summary. */
export function reportQueued(bytes: number): void {
  const stats = hub().stats;
  if (bytes > stats.peakQueuedBytes) stats.peakQueuedBytes = bytes;
}

/** This process's streams (the cron tick's summary, `eventStreams`): a disconnect must bring `open` down. */
export function streamStats(): StreamStats {
  const streams = allStreams();
  const queuedBytes = streams.reduce((sum, stream) => sum + stream.queuedBytes(), 0);
  return { open: streams.length, queuedBytes, ...hub().stats };
}

/** Reads the merchant and mode of `scope` soon (a commit, a drained client); null: every one. */
export function wake(topic: string | null): void {
  const h = hub();
  if (topic === null) for (const key of h.topics.keys()) h.dirty.add(key);
  else if (h.topics.has(topic)) h.dirty.add(topic);
  if (h.dirty.size > 0) void pump(h);
}

export function wakeScope(scope: Scope): void {
  wake(topicOf(scope));
}

async function pump(h: Hub): Promise<void> {
  if (h.pumping) return;
  h.pumping = true;
  try {
    while (h.dirty.size > 0) {
      const topics = [...h.dirty];
      h.dirty.clear();
      for (const topic of topics) await readTopic(h, topic);
    }
  } finally {
    h.pumping = false;
  }
  if (h.pending.size > 0) scheduleRetry(h);
  else h.retryDelay = PENDING_RETRY_MS.first;
}

async function readTopic(h: Hub, topic: string): Promise<void> {
  const groups = new Map<string, HubStream[]>();
  for (const stream of h.topics.get(topic) ?? []) {
    if (stream.closed || (stream.behind && !stream.hasRoom())) continue; // a drained client wakes it again
    const key = `${stream.cursor.xid}:${stream.cursor.seq}`;
    groups.set(key, [...(groups.get(key) ?? []), stream]);
  }
  for (const group of groups.values()) {
    const { scope, cursor } = group[0];
    const budget = Math.max(1, Math.min(...group.map((stream) => stream.roomBytes())));
    let rows: EventRow[];
    try {
      rows = await sql().rows<EventRow>(READ, [scope.merchantId, scope.livemode, cursor.xid, cursor.seq, budget]);
    } catch (err) {
      console.error("event stream read:", err instanceof Error ? err.message : err);
      continue; // the catch-up timer reads again
    }
    const ready = rows.filter((row) => row.ready);
    if (ready.length < rows.length) h.pending.add(topic);
    // More ready rows after these: a full page, or one cut by bytes with every row of it ready.
    const pageRows = rows[0]?.page_rows ?? 0;
    const more = ready.length === rows.length && (pageRows === PAGE || rows.length < pageRows);
    for (const stream of group) {
      let taken = 0;
      while (taken < ready.length && stream.deliver(ready[taken])) taken++;
      stream.behind = more || taken < ready.length;
    }
    if (more) h.dirty.add(topic);
  }
}

/** Events of younger transactions wait for older ones: look again soon, backing off while they stay. */
function scheduleRetry(h: Hub): void {
  if (h.retryTimer) return;
  h.retryTimer = setTimeout(() => {
    h.retryTimer = undefined;
    for (const topic of h.pending) if (h.topics.has(topic)) h.dirty.add(topic);
    h.pending.clear();
    h.retryDelay = Math.min(h.retryDelay * 2, PENDING_RETRY_MS.max);
    void pump(h);
  }, h.retryDelay).unref();
}

function start(h: Hub): void {
  h.unsubscribe = subscribeToEvents((signal) => wake(signal ? topicOf(signal) : null));
  const every = (ms: number, run: () => void) => h.intervals.push(setInterval(run, ms).unref());
  every(env.EVENT_STREAM_KEEPALIVE_MS, () => allStreams().forEach((stream) => stream.keepAlive()));
  every(leaseRenewalMs(), () => void renewLeases());
  // Catch-up for lost notifications; where nothing listens (a serverless host), the poll itself.
  const poll = () => {
    h.pollTimer = setTimeout(
      () => {
        wake(null);
        poll();
      },
      isListening() ? SAFETY_POLL_MS : env.EVENT_STREAM_POLL_MS,
    ).unref();
  };
  poll();
}

function stop(h: Hub): void {
  for (const timer of [...h.intervals, h.pollTimer, h.retryTimer]) clearTimeout(timer);
  h.intervals = [];
  h.pollTimer = h.retryTimer = undefined;
  h.pending.clear();
  h.unsubscribe?.();
  h.unsubscribe = undefined;
}

/** One statement for all of this process's streams; a stream whose lease expired meanwhile ends (it resumes). */
async function renewLeases(): Promise<void> {
  const streams = allStreams();
  try {
    const held = await renewStreamLeases(streams.map((s) => s.leaseId));
    for (const stream of streams) if (!held.has(stream.leaseId) && !stream.closed) stream.end("lease_lost");
  } catch (err) {
    console.error("event stream leases:", err instanceof Error ? err.message : err);
  }
}
