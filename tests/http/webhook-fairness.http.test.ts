// Fairness (issue 20, Build item 4), scaled down to run in CI: merchant A has 16 endpoints (the cap) that
// answer after 9.9 s, and 10 events for each (160 slow attempts); the process's in-flight limit is lowered
// from 256 to 48 so that A's attempts alone fill it (the 200 slow endpoints of one merchant). Meanwhile
// merchant B's order.paid still reaches its receiver within 2 s of the capture, and the cron tick (npm start's
// 1 s ticker) keeps its cadence: B's checkout expires and B's payment settles on time, and the tick's
// webhook task never waits on a send.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createId } from "../../lib/ids";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { startTicker } from "../../scripts/lib/ticker";
import { call } from "../helpers/http";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { capture, openCheckout, sleep, tick } from "../helpers/payments";
import { startTestServer, TEST_CRON_SECRET } from "../helpers/server";
import { startReceiver, startSlowReceiver } from "../helpers/webhook-receiver";

let database: OwnDatabase;
let server: ServerProcess;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  database = await ownDatabase("webhook_fairness");
  server = await startTestServer({
    DATABASE_URL: database.url,
    WEBHOOK_WAKE_ON_COMMIT: "1",
    WEBHOOK_CONCURRENCY: "48",
    WEBHOOK_TIMEOUT_MS: "10000",
  });
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
  await server?.stop();
  await database?.drop();
});

describe("fairness between merchants", () => {
  it("with merchant A's 16 endpoints answering after 9.9 s, B's order.paid arrives within 2 s and expiry and settlement keep their cadence", async () => {
    const stopTicker = startTicker(server.url, TEST_CRON_SECRET, 1_000);
    cleanups.push(stopTicker);
    const a = await database.createMerchant("Slow merchant A");
    const slow = await startSlowReceiver(9_900);
    cleanups.push(() => slow.close());
    for (let i = 0; i < 16; i++) {
      const res = await call("POST", "/v1/webhook-endpoints", { key: a.testKey, base: server.url, body: { url: `${slow.url}/a${i}` } });
      expect(res.status).toBe(201);
    }
    // 10 events of A in one commit: 160 attempts that each take 9.9 s.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query("BEGIN");
    for (let i = 0; i < 10; i++) {
      const id = createId("event");
      await client.query(
        "INSERT INTO events (id, merchant_id, livemode, type, data, created_at) VALUES ($1, $2, false, 'order.paid', $3, now())",
        [id, a.merchantId, JSON.stringify({ object: { id: `ord_${id.slice(4)}`, object: "order" } })],
      );
    }
    await client.query("COMMIT");
    await client.end();
    const deadline = Date.now() + 5_000;
    while (slow.state.inFlight < 40 && Date.now() < deadline) await sleep(50);
    expect(slow.state.inFlight).toBeGreaterThanOrEqual(40); // A fills the sender (48 in flight at most)

    const b = await database.createMerchant("Merchant B");
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    expect((await call("POST", "/v1/webhook-endpoints", { key: b.testKey, base: server.url, body: { url: receiver.url } })).status).toBe(
      201,
    );
    const expiring = await openCheckout(b.testKey, { amount: 700, expiresInSeconds: 1 }, server.url);
    const checkout = await openCheckout(b.testKey, { amount: 900 }, server.url);
    const res = await capture(b.testKey, checkout.id, "pm_card_visa", { base: server.url });
    expect(res.status).toBe(200);
    const capturedAt = Date.now();
    await receiver.waitFor((r) => r.some((d) => d.event.type === "order.paid"), 5_000);
    const paidAt = receiver.received.find((d) => d.event.type === "order.paid")!.receivedAt;
    console.log(`B's order.paid ${paidAt - capturedAt} ms after the capture, with ${slow.state.inFlight} of A's attempts in flight`);
    expect(paidAt - capturedAt).toBeLessThan(2_000);

    // The ticker's money tasks run on time: B's checkout expires, B's payment settles (test mode: next tick).
    await receiver.waitFor(
      (r) =>
        r.some((d) => d.event.type === "payment_intent.expired" && d.event.data.object.id === expiring.paymentIntentId) &&
        r.some((d) => d.event.type === "payment_intent.settled"),
      4_000,
    );
    // And a tick never waits on A's sends.
    const summary = (await tick(server.url)).body;
    expect(summary.durationsMs.webhooksDelivered).toBeLessThan(500);
    expect(slow.state.inFlight).toBeGreaterThan(0); // A's attempts were still out there all along
    // The per-endpoint and per-merchant caps held: A never had more than the process limit out at once.
    expect(slow.state.maxInFlight).toBeLessThanOrEqual(48);
  }, 60_000);
});
