// GET /v1/events/stream over real HTTP against a production server (docs/webhooks.md,
// "Live events for developers"): frames exactly as fixed there, the ?types= filter, modes kept apart, Last-Event-ID replay
// without a gap or a repeat (also around a transaction that commits after a younger one), keep-alive comments,
// clean-up on disconnect. The caps, the time limit and backpressure: event-stream-limits.http.test.ts. The file's own database: it holds transactions open and inserts live events.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createId } from "../../lib/ids";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { openStream, type SseConnection } from "../helpers/event-stream";
import { call } from "../helpers/http";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { capture, openCheckout, sleep, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let server: ServerProcess;
let database: OwnDatabase;
const open: SseConnection[] = [];

beforeAll(async () => {
  database = await ownDatabase("event_stream");
  // Webhooks are not what this file tests: the sender stays idle (no endpoints anyway).
  server = await startTestServer({ DATABASE_URL: database.url, EVENT_STREAM_KEEPALIVE_MS: "400" });
});
afterAll(async () => {
  for (const c of open) c.close();
  await server?.stop();
  await database?.drop();
});

async function stream(key: string, options: { types?: string; lastEventId?: string } = {}) {
  const connection = await openStream(server.url, key, options);
  open.push(connection);
  return connection;
}

async function captureOne(key: string) {
  const checkout = await openCheckout(key, { amount: 1200 }, server.url);
  const res = await capture(key, checkout.id, "pm_card_visa", { base: server.url });
  expect(res.status).toBe(200);
  return res.body;
}

/** Inserts an event row directly (any mode), on `client` if given (e.g. inside an open transaction). */
async function insertEvent(merchantId: string, livemode: boolean, type = "order.paid", client?: pg.ClientBase) {
  const id = createId("event");
  const q = "INSERT INTO events (id, merchant_id, livemode, type, data, created_at) VALUES ($1, $2, $3, $4, $5, now())";
  const values = [id, merchantId, livemode, type, JSON.stringify({ object: { id: `ord_${id.slice(4)}`, object: "order" } })];
  if (client) await client.query(q, values);
  else {
    const c = new pg.Client({ connectionString: database.url });
    await c.connect();
    await c.query(q, values);
    await c.end();
  }
  return id;
}

describe("GET /v1/events/stream", () => {
  it("sends each event as it happens: id = event id, event = type, data = GET /v1/events/:id", async () => {
    const m = await database.createMerchant();
    const s = await stream(m.testKey);
    expect(s.status).toBe(200);
    expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(s.headers.get("cache-control")).toContain("no-transform");
    const startedAt = Date.now();
    const order = await captureOne(m.testKey);
    await s.waitFor((f) => f.some((x) => x.event === "order.paid") && f.some((x) => x.event === "payment_intent.captured"), 5_000);
    // Woken by the commit's NOTIFY: well under the 1 s poll of a host where nothing listens.
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    for (const frame of s.frames) {
      const event = JSON.parse(frame.data);
      expect(frame.id).toBe(event.id);
      expect(frame.event).toBe(event.type);
      const viaGet = await call("GET", `/v1/events/${event.id}`, { key: m.testKey, base: server.url });
      expect(viaGet.status).toBe(200);
      expect(event).toEqual(viaGet.body);
    }
    const paid = JSON.parse(s.frames.find((f) => f.event === "order.paid")!.data);
    expect(paid.data.object).toMatchObject({ id: order.id, status: "paid" });
  });

  it("?types= filters with exact types and * suffix wildcards; an unknown type is a 400", async () => {
    const m = await database.createMerchant();
    const orders = await stream(m.testKey, { types: "order.*" });
    const captured = await stream(m.testKey, { types: "payment_intent.captured,order.refunded" });
    const all = await stream(m.testKey, { types: "*" });
    await captureOne(m.testKey);
    await all.waitFor((f) => f.length >= 2);
    await orders.waitFor((f) => f.length >= 1);
    await captured.waitFor((f) => f.length >= 1);
    await sleep(300);
    expect(orders.frames.map((f) => f.event)).toEqual(["order.paid"]);
    expect(captured.frames.map((f) => f.event)).toEqual(["payment_intent.captured"]);
    const bad = await stream(m.testKey, { types: "order.paid,order.exploded" });
    expect(bad.status).toBe(400);
    expect(bad.errorBody.error.code).toBe("VALIDATION_ERROR");
    expect(bad.errorBody.error.details.fields[0].path).toBe("types.1");
    const noKey = await fetch(`${server.url}/v1/events/stream`);
    expect(noKey.status).toBe(401);
  });

  it("a test key sees only test events and a live key only live ones", async () => {
    const m = await database.createMerchant();
    const test = await stream(m.testKey);
    const live = await stream(m.liveKey);
    const liveId = await insertEvent(m.merchantId, true);
    const testId = await insertEvent(m.merchantId, false);
    await live.waitFor((f) => f.length >= 1);
    await test.waitFor((f) => f.length >= 1);
    await sleep(500);
    expect(live.frames.map((f) => f.id)).toEqual([liveId]);
    expect(test.frames.map((f) => f.id)).toEqual([testId]);
    expect(JSON.parse(live.frames[0].data).livemode).toBe(true);
    const other = await database.createMerchant();
    const otherStream = await stream(other.testKey);
    await insertEvent(m.merchantId, false);
    await sleep(500);
    expect(otherStream.frames).toHaveLength(0);
  });

  it("Last-Event-ID replays every later event (none missed while away), then goes live", async () => {
    const m = await database.createMerchant();
    const first = await stream(m.testKey);
    const a = await insertEvent(m.merchantId, false);
    await first.waitFor((f) => f.length >= 1);
    first.close();
    // While disconnected: more events, one of them in a transaction that began BEFORE the last seen event
    // was inserted (a lower seq) and commits after the disconnect.
    const late = new pg.Client({ connectionString: database.url });
    await late.connect();
    await late.query("BEGIN");
    const lateId = await insertEvent(m.merchantId, false, "order.refunded", late);
    const b = await insertEvent(m.merchantId, false);
    const c = await insertEvent(m.merchantId, false);
    await late.query("COMMIT");
    await late.end();
    expect(first.frames.map((f) => f.id)).toEqual([a]);

    const resumed = await stream(m.testKey, { lastEventId: a });
    await resumed.waitFor((f) => [b, c, lateId].every((id) => f.some((x) => x.id === id)));
    const d = await insertEvent(m.merchantId, false);
    await resumed.waitFor((f) => f.some((x) => x.id === d));
    await sleep(300);
    // Exactly what the client had not seen, each once, in transaction order (the late one began first).
    expect(resumed.frames.map((f) => f.id)).toEqual([lateId, b, c, d]);

    // An unknown Last-Event-ID is refused rather than silently starting live.
    const unknown = await stream(m.testKey, { lastEventId: "evt_doesnotexist000000000000" });
    expect(unknown.status).toBe(400);
  });

  it("live: an event of a younger transaction waits while an older one is open, then both go out in order, once", async () => {
    const m = await database.createMerchant();
    const s = await stream(m.testKey);
    const late = new pg.Client({ connectionString: database.url });
    await late.connect();
    await late.query("BEGIN");
    const early = await insertEvent(m.merchantId, false, "order.refunded", late); // the older transaction, not committed
    const later = await insertEvent(m.merchantId, false);
    await sleep(700);
    // Sending `later` now would let a client resuming from it skip `early`: it waits for the older transaction.
    expect(s.frames).toHaveLength(0);
    await late.query("COMMIT");
    await late.end();
    await s.waitFor((f) => f.length >= 2);
    await sleep(300);
    expect(s.frames.map((f) => f.id)).toEqual([early, later]);

    // A reconnect resuming from `early` gets `later` and nothing twice.
    s.close();
    const resumed = await stream(m.testKey, { lastEventId: early });
    await resumed.waitFor((f) => f.some((x) => x.id === later));
    await sleep(300);
    expect(resumed.frames.map((f) => f.id)).toEqual([later]);
  });

  it("keeps the connection alive with comment lines and cleans up when the client goes away", async () => {
    const m = await database.createMerchant();
    for (const c of open.splice(0)) c.close();
    const openNow = async () => (await tick(server.url)).body.eventStreamsOpen as number;
    const settle = async (n: number) => {
      const deadline = Date.now() + 5_000;
      while ((await openNow()) !== n && Date.now() < deadline) await sleep(100);
      expect(await openNow()).toBe(n);
    };
    await settle(0);
    const s = await stream(m.testKey);
    await sleep(1_000);
    expect(s.comments.filter((c) => c === "keep-alive").length).toBeGreaterThanOrEqual(2);
    expect(await openNow()).toBe(1);
    s.close();
    await settle(0);
  });
});
