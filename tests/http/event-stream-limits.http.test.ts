// The bounds of GET /v1/events/stream (docs/webhooks.md, "Bounds"), over real HTTP against production servers
// sharing one database: the open-stream caps counted across two processes (429 in the error shape), the
// time limit after which a stream ends and resumes, and a client that stops reading: dropped once its queue
// is full, the server's memory bounded, and its resume with Last-Event-ID missing and repeating nothing.
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createId } from "../../lib/ids";
import { createApiKey } from "../../lib/merchants/create-api-key";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { openStream, type SseConnection } from "../helpers/event-stream";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { sleep, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let database: OwnDatabase;
let first: ServerProcess;
let second: ServerProcess;
let shortLived: ServerProcess;
let smallQueue: ServerProcess;
let crashing: ServerProcess;
const open: SseConnection[] = [];
const QUEUE_BYTES = 256 * 1024;
const STALLED = 6;

beforeAll(async () => {
  database = await ownDatabase("event_stream_limits");
  const env = { DATABASE_URL: database.url, EVENT_STREAM_KEEPALIVE_MS: "1000" };
  // Two processes with the default caps; one whose streams end after 2 s (one per key); one with a small queue.
  [first, second, shortLived, smallQueue, crashing] = await Promise.all([
    startTestServer(env),
    startTestServer(env),
    startTestServer({ ...env, EVENT_STREAM_MAX_SECONDS: "2", EVENT_STREAM_MAX_PER_KEY: "1" }),
    startTestServer({ ...env, EVENT_STREAM_MAX_QUEUE_BYTES: String(QUEUE_BYTES) }),
    startTestServer({ ...env, EVENT_STREAM_LEASE_SECONDS: "3" }),
  ]);
}, 120_000);
afterAll(async () => {
  for (const c of open) c.close();
  await Promise.all([first, second, shortLived, smallQueue, crashing].map((s) => s?.stop()));
  await database?.drop();
});

async function stream(server: ServerProcess, key: string, options: { lastEventId?: string; paused?: boolean } = {}) {
  const connection = await openStream(server.url, key, options);
  open.push(connection);
  return connection;
}

/** Commits `count` events of about `bytes` each in one transaction; their ids in insert order. */
async function insertEvents(merchantId: string, count = 1, bytes = 100): Promise<string[]> {
  const ids = Array.from({ length: count }, () => createId("event"));
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(
    `INSERT INTO events (id, merchant_id, livemode, type, data, created_at)
     SELECT id, $2, false, 'order.paid', jsonb_build_object('object', jsonb_build_object('id', id, 'padding', repeat('x', $3::int))), now()
       FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n) ORDER BY n`,
    [ids, merchantId, bytes],
  );
  await client.end();
  return ids;
}

// The tick summary of that process's streams (absent before this change: the waits below then time out).
const streamStats = async (server: ServerProcess) => ((await tick(server.url)).body.eventStreams ?? {}) as Record<string, number>;
const rssBytes = (server: ServerProcess) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))![1]) * 1024;

async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000, what = "condition") {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not met in ${timeoutMs} ms`);
    await sleep(50);
  }
}

describe("event stream bounds", () => {
  it("50 streams opened at once with one key, across two processes: 10 open, 40 answer 429 too_many_streams; the merchant's cap counts all its keys", async () => {
    const m = await database.createMerchant();
    const attempts = await Promise.all(Array.from({ length: 50 }, (_, i) => stream(i % 2 ? first : second, m.testKey)));
    const opened = attempts.filter((c) => c.status === 200);
    const refused = attempts.filter((c) => c.status === 429);
    expect(opened).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.errorBody).toEqual({
        error: {
          code: "RATE_LIMITED",
          message: "This API key already has the maximum of 10 open event streams; close one first.",
          details: { reason: "too_many_streams", scope: "api_key", limit: 10, retryAfterSeconds: 20 },
        },
      });
      expect(r.headers.get("retry-after")).toBe("20");
    }
    // The default time limit is announced at the start.
    await opened[0].waitFor(() => opened[0].comments.length > 0);
    expect(opened[0].comments[0]).toBe("connected; this stream ends after 3600 s, resume with Last-Event-ID");

    // Closing one frees its slot for the other process too.
    opened[0].close();
    let again: SseConnection | undefined;
    await until(async () => (again = await stream(first, m.testKey)).status === 200, 5_000, "a freed slot");
    expect(again!.status).toBe(200);

    // Four more keys with 10 each: 50 for the merchant; a sixth key is refused by the merchant's cap.
    const keys = await Promise.all(
      Array.from({ length: 5 }, () => database.db.$transaction((tx) => createApiKey(tx, m.merchantId, false)).then((k) => k.secret)),
    );
    const more = await Promise.all(
      keys.slice(0, 4).flatMap((key, k) => Array.from({ length: 10 }, (_, i) => stream((k + i) % 2 ? first : second, key))),
    );
    expect(more.map((c) => c.status)).toEqual(Array(40).fill(200));
    const over = await stream(second, keys[4]);
    expect(over.status).toBe(429);
    expect(over.errorBody.error.details).toEqual({ reason: "too_many_streams", scope: "merchant", limit: 50, retryAfterSeconds: 20 });
    for (const c of open.splice(0)) c.close();
  });

  it("a process killed with its streams open: its slots count until their leases expire, then free themselves", async () => {
    const m = await database.createMerchant();
    const held = await Promise.all(Array.from({ length: 10 }, () => stream(crashing, m.testKey)));
    expect(held.map((c) => c.status)).toEqual(Array(10).fill(200));
    await sleep(1_500); // renewed at least once (every second with 3 s leases)
    crashing.child.kill("SIGKILL");
    const killedAt = Date.now();
    expect((await stream(first, m.testKey)).status).toBe(429); // still counted: the rows outlive the process
    await until(async () => (await stream(first, m.testKey)).status === 200, 10_000, "slots of the killed process freed");
    expect(Date.now() - killedAt).toBeLessThan(6_000);
    for (const c of open.splice(0)) c.close();
  });

  it("a stream ends cleanly after EVENT_STREAM_MAX_SECONDS, frees its slot, and resumes with Last-Event-ID", async () => {
    const m = await database.createMerchant();
    const s = await stream(shortLived, m.testKey);
    expect(s.status).toBe(200);
    expect((await stream(shortLived, m.testKey)).status).toBe(429); // one per key on this server
    const openedAt = Date.now();
    const [a] = await insertEvents(m.merchantId);
    await s.waitFor((f) => f.some((x) => x.id === a));
    await s.closed;
    expect(Date.now() - openedAt).toBeLessThan(4_000);
    expect(s.comments).toContain("this stream has reached EVENT_STREAM_MAX_SECONDS; reconnect with Last-Event-ID");
    const [b] = await insertEvents(m.merchantId); // while disconnected
    const resumed = await stream(shortLived, m.testKey, { lastEventId: a });
    expect(resumed.status).toBe(200); // the slot was freed
    const [c] = await insertEvents(m.merchantId);
    await resumed.waitFor((f) => f.some((x) => x.id === c));
    expect(resumed.frames.map((f) => f.id)).toEqual([b, c]);
    resumed.close();
  });

  it("a client that stops reading is dropped once its queue is full, the server's memory stays bounded, and it resumes without a gap or a repeat", async () => {
    const m = await database.createMerchant();
    const reader = await stream(smallQueue, m.testKey);
    const stalled = await Promise.all(Array.from({ length: STALLED }, () => stream(smallQueue, m.testKey, { paused: true })));
    await sleep(500);
    const rssBefore = rssBytes(smallQueue);
    // 24 MB of events (16 KB each), far more than the socket buffers of the stalled clients hold.
    const ids: string[] = [];
    for (let batch = 0; batch < 30; batch++) ids.push(...(await insertEvents(m.merchantId, 50, 16_000)));
    await until(async () => (await streamStats(smallQueue)).dropped === STALLED, 20_000, "every stalled stream dropped");
    await reader.waitFor((f) => f.length >= ids.length, 20_000);

    const stats = await streamStats(smallQueue);
    const rssGrowth = rssBytes(smallQueue) - rssBefore;
    console.log(
      `stalled clients dropped: ${stats.dropped}; peak queue ${stats.peakQueuedBytes} B; server RSS growth ${(rssGrowth / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(stats.open).toBe(1); // the reader
    expect(stats.peakQueuedBytes).toBeLessThanOrEqual(QUEUE_BYTES + 17_000); // the bound plus one frame
    // Measured 44-67 MiB (the heap of pushing 24 MB through the reader); without the bound the six stalled
    // queues would add most of the 144 MB sent to them (each holds all but what the socket buffers took).
    expect(rssGrowth).toBeLessThan(128 * 2 ** 20);
    // The reader, never full for long, got everything once, in order.
    expect(reader.frames.map((f) => f.id)).toEqual(ids);

    for (const s of stalled) {
      s.resume(); // it reads what reached it, then the connection ends
      await s.closed;
      const got = s.frames.map((f) => f.id);
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(ids.length);
      const resumed = await stream(smallQueue, m.testKey, { lastEventId: got[got.length - 1] });
      await resumed.waitFor((f) => f.length >= ids.length - got.length, 20_000);
      await sleep(200);
      expect([...got, ...resumed.frames.map((f) => f.id)]).toEqual(ids);
      resumed.close();
    }
  });
});
