// Wake on commit (docs/webhooks.md): in the long-running server, the commit of a transaction that emitted
// events starts fan-out and the first attempt at once, with no cron tick at all; commits that keep coming make a
// round (fan-out and claim) at most every 50 ms; when the notification is
// lost the tick still sends it; two processes woken by the same commits (and ticking) send each attempt once;
// a merchant's 17th endpoint is refused. The file's own database: it switches the notify trigger off.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { startTicker } from "../../scripts/lib/ticker";
import { call } from "../helpers/http";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { capture, openCheckout, sleep, tick } from "../helpers/payments";
import { startTestServer, TEST_CRON_SECRET } from "../helpers/server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let database: OwnDatabase;
let server: ServerProcess;
const cleanups: (() => unknown)[] = [];
const WAKE = { WEBHOOK_WAKE_ON_COMMIT: "1", WEBHOOK_RETRY_SCHEDULE: "1,1", WEBHOOK_TIMEOUT_MS: "2000" };

beforeAll(async () => {
  database = await ownDatabase("webhook_wake");
  server = await startTestServer({ DATABASE_URL: database.url, ...WAKE });
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
  await server?.stop();
  await database?.drop();
});

async function endpointFor(key: string, receiver: Receiver, base = server.url) {
  const res = await call("POST", "/v1/webhook-endpoints", { key, base, body: { url: receiver.url, enabledEvents: ["order.paid"] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function captureAt(key: string, base = server.url) {
  const checkout = await openCheckout(key, { amount: 1500 }, base);
  const res = await capture(key, checkout.id, "pm_card_visa", { base });
  expect(res.status).toBe(200);
  return { order: res.body, capturedAt: Date.now() };
}

describe("wake on commit", () => {
  it("the first attempt of order.paid arrives without any cron tick", async () => {
    const m = await database.createMerchant();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    await endpointFor(m.testKey, receiver);
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { order, capturedAt } = await captureAt(m.testKey);
      await receiver.waitFor((r) => r.some((d) => d.event.data.object.id === order.id), 5_000);
      latencies.push(receiver.received.find((d) => d.event.data.object.id === order.id)!.receivedAt - capturedAt);
    }
    latencies.sort((a, b) => a - b);
    console.log(`wake path, capture response -> receiver over 20 captures: p50 ${latencies[10]} ms, max ${latencies[19]} ms`);
    expect(receiver.received).toHaveLength(20);
    // No tick ran: nothing else could have sent them within seconds (a benchmark gives the real figure).
    expect(latencies[19]).toBeLessThan(3_000);
  });

  it("commits that keep coming make a round at most every 50 ms: each fan-out takes the events of every commit meanwhile", async () => {
    const m = await database.createMerchant();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    cleanups.push(() => admin.end());
    await sleep(200); // a quiet spell
    // A commit every few milliseconds for half a second: each event insert commits on its own and notifies.
    const until = Date.now() + 500;
    while (Date.now() < until) {
      await admin.query(
        `INSERT INTO events (id, merchant_id, livemode, type, data) VALUES (aps_random_id('evt'), $1, false, 'order.paid', $2)`,
        [m.merchantId, { object: { id: "ord_commit_rounds", object: "order" } }],
      );
      await sleep(2);
    }
    await sleep(300);
    // Each fan-out statement marks what it takes with its own transaction's now(): one value per fan-out.
    const { rows } = await admin.query<{ commits: number; fanouts: number; span: number; unmarked: number }>(
      `SELECT count(*)::int AS commits, count(DISTINCT fanned_out_at)::int AS fanouts,
              (extract(epoch FROM max(fanned_out_at) - min(fanned_out_at)) * 1000)::int AS span,
              count(*) FILTER (WHERE fanned_out_at IS NULL)::int AS unmarked
         FROM events WHERE merchant_id = $1`,
      [m.merchantId],
    );
    const [seen] = rows;
    console.log(`commit rounds: ${seen.commits} commits fanned out by ${seen.fanouts} statements over ${seen.span} ms`);
    expect(seen.unmarked).toBe(0);
    expect(seen.commits).toBeGreaterThan(50);
    // Rounds 50 ms apart (the first after the quiet spell at once), so about span / 50 + 1 of them: bounded with room
    // for timers' rounding (a round per commit would be one every few milliseconds).
    expect(seen.fanouts).toBeLessThanOrEqual(Math.floor(seen.span / 40) + 1);
  });

  it("a lost notification is caught by the tick", async () => {
    const m = await database.createMerchant();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    await endpointFor(m.testKey, receiver);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    cleanups.push(async () => {
      await admin.query("ALTER TABLE events ENABLE TRIGGER events_notify");
      await admin.end();
    });
    await admin.query("ALTER TABLE events DISABLE TRIGGER events_notify"); // commits notify nobody now
    const { order } = await captureAt(m.testKey);
    await sleep(1_500);
    expect(receiver.received).toHaveLength(0);
    await tick(server.url);
    await receiver.waitFor((r) => r.some((d) => d.event.data.object.id === order.id), 5_000);
    await admin.query("ALTER TABLE events ENABLE TRIGGER events_notify");
  });

  it("two processes woken by the same commits, both ticking every 50 ms, send each attempt once", async () => {
    const second = await startTestServer({ DATABASE_URL: database.url, ...WAKE });
    cleanups.push(() => second.stop());
    const m = await database.createMerchant();
    let concurrent = 0;
    let maxConcurrentSameEvent = 0;
    const inFlight = new Map<string, number>();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    receiver.respond = (d) => {
      const n = (inFlight.get(d.event.id) ?? 0) + 1;
      inFlight.set(d.event.id, n);
      maxConcurrentSameEvent = Math.max(maxConcurrentSameEvent, n);
      concurrent++;
      setTimeout(() => inFlight.set(d.event.id, inFlight.get(d.event.id)! - 1), 50);
      return 200;
    };
    await endpointFor(m.testKey, receiver);
    const stops = [startTicker(server.url, TEST_CRON_SECRET, 50), startTicker(second.url, TEST_CRON_SECRET, 50)];
    cleanups.push(() => stops.forEach((stop) => stop()));
    const orders: string[] = [];
    await Promise.all(
      Array.from({ length: 3 }, async (_, lane) => {
        for (let i = 0; i < 10; i++) orders.push((await captureAt(m.testKey, lane % 2 ? second.url : server.url)).order.id);
      }),
    );
    await receiver.waitFor((r) => r.length >= 30, 15_000);
    await sleep(1_500);
    const ids = receiver.received.map((d) => d.event.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(new Set(receiver.received.map((d) => d.event.data.object.id))).toEqual(new Set(orders));
    expect(maxConcurrentSameEvent).toBe(1);
    expect(concurrent).toBe(30);
  });

  it("a merchant has at most 16 endpoints per mode: the 17th is a 400 that says so", async () => {
    const m = await database.createMerchant();
    for (let i = 0; i < 16; i++) {
      const res = await call("POST", "/v1/webhook-endpoints", {
        key: m.testKey,
        base: server.url,
        body: { url: `http://127.0.0.1:9/h${i}` },
      });
      expect(res.status).toBe(201);
    }
    const refused = await call("POST", "/v1/webhook-endpoints", {
      key: m.testKey,
      base: server.url,
      body: { url: "http://127.0.0.1:9/h17" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_ERROR");
    expect(refused.body.error.message).toMatch(/maximum of 16 test-mode webhook endpoints/);
    // The other mode has its own 16.
    expect(
      (await call("POST", "/v1/webhook-endpoints", { key: m.liveKey, base: server.url, body: { url: "http://127.0.0.1:9/live" } })).status,
    ).toBe(201);
  });
});
