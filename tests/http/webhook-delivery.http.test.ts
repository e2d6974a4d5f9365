// Delivery end to end on the isolated test database (its ticks are this file's alone): signed,
// filtered, retried on the schedule, logged, rotated, resent, guarded at send time, shared safely by
// two senders, and never lost when a sender is killed mid-batch.
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "agent-payments-sdk";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { startTicker } from "../../scripts/lib/ticker";
import { call } from "../helpers/http";
import { createIsolatedMerchant, isolatedDatabaseUrl, isolatedDb } from "../helpers/isolated-db";
import { capture, openCheckout, tick } from "../helpers/payments";
import { startTestServer, TEST_CRON_SECRET } from "../helpers/server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

const SENDER_ENV = { WEBHOOK_RETRY_SCHEDULE: "1,1", WEBHOOK_TIMEOUT_MS: "1000" };
let server: ServerProcess;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  server = await startTestServer({ DATABASE_URL: isolatedDatabaseUrl(), ...SENDER_ENV });
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(async () => {
  await server.stop();
  await isolatedDb().$disconnect();
});

async function receiverFor(key: string, body: Record<string, unknown> = {}, respond?: Receiver["respond"], base = server.url) {
  const receiver = await startReceiver(respond);
  cleanups.push(() => receiver.close());
  const endpoint = await call("POST", "/v1/webhook-endpoints", { key, base, body: { url: receiver.url, ...body } });
  expect(endpoint.status).toBe(201);
  return { receiver, endpoint: endpoint.body };
}

async function paid(key: string, base = server.url) {
  const checkout = await openCheckout(key, { amount: 2500 }, base);
  const res = await capture(key, checkout.id, "pm_card_visa", { base });
  expect(res.status).toBe(200);
  return { checkout, order: res.body, capturedAt: Date.now() };
}

async function tickUntil(condition: () => boolean, base = server.url, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met");
    await tick(base);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("delivery", () => {
  it("a capture arrives as order.paid and payment_intent.captured within 3 s, verifiable by our SDK and by Stripe's", async () => {
    const m = await createIsolatedMerchant();
    const { receiver, endpoint } = await receiverFor(m.testKey);
    const ordersOnly = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] });
    const stopTicker = startTicker(server.url, TEST_CRON_SECRET); // npm start's ticker: every second
    cleanups.push(stopTicker);
    const { order, capturedAt } = await paid(m.testKey);

    await receiver.waitFor((r) => r.length >= 2, 5_000);
    // Test mode settles on the next tick, so payment_intent.settled may follow: look at the capture's two.
    await receiver.waitFor((r) => ["order.paid", "payment_intent.captured"].every((type) => r.some((d) => d.event.type === type)), 5_000);
    const captureEvents = receiver.received.filter((d) => d.event.type === "order.paid" || d.event.type === "payment_intent.captured");
    expect(captureEvents.map((d) => d.event.type).sort()).toEqual(["order.paid", "payment_intent.captured"]);
    for (const delivery of captureEvents) {
      expect(delivery.receivedAt - capturedAt).toBeLessThan(3_000);
      expect(delivery.headers["x-service-event-id"]).toBe(delivery.event.id);
      expect(delivery.event).toMatchObject({ id: expect.stringMatching(/^evt_/), livemode: false, created: expect.any(Number) });
      const header = String(delivery.headers["x-service-signature"]);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhook(delivery.rawBody, header, endpoint.secret).id).toBe(delivery.event.id);
      const viaStripe = new Stripe("sk_test_unused").webhooks.constructEvent(delivery.rawBody, header, endpoint.secret);
      expect(viaStripe.id).toBe(delivery.event.id);
      expect(() => verifyWebhook(delivery.rawBody, header, "whsec_wrong")).toThrow();
    }
    const paidEvent = receiver.received.find((d) => d.event.type === "order.paid")!;
    expect(paidEvent.event.data.object).toMatchObject({ id: order.id, object: "order", status: "paid" });

    // The subscription filter: the second endpoint gets order.paid only.
    await ordersOnly.receiver.waitFor((r) => r.length >= 1, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(ordersOnly.receiver.received.map((d) => d.event.type)).toEqual(["order.paid"]);
  });

  it("a receiver answering 500 twice then 200 gets the same event three times, and the log shows all three", async () => {
    const m = await createIsolatedMerchant();
    const { receiver, endpoint } = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] }, (_d, i) => (i < 2 ? 500 : 200));
    await paid(m.testKey);
    await tickUntil(() => receiver.received.length >= 3);
    expect(new Set(receiver.received.map((d) => d.event.id)).size).toBe(1);
    const log = await call("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: m.testKey, base: server.url });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const attempts = [...log.body.data].reverse(); // oldest first
    expect(attempts.map((a: { status: string }) => a.status)).toEqual(["failed", "failed", "succeeded"]);
    expect(attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([500, 500, 200]);
    expect(attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts.every((a: { eventType: string }) => a.eventType === receiver.received[0].event.type)).toBe(true);
    expect(attempts[0]).toMatchObject({
      id: expect.stringMatching(/^wda_/),
      eventId: receiver.received[0].event.id,
      durationMs: expect.any(Number),
      error: "http_error",
      nextAttemptAt: expect.any(String),
    });
    expect(attempts[2].nextAttemptAt).toBeNull();
  });

  it("a receiver that never answers ends failed after the schedule", async () => {
    const m = await createIsolatedMerchant();
    const { receiver, endpoint } = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] }, () => "hang");
    await paid(m.testKey);
    await tickUntil(() => receiver.received.length >= 3);
    await tickUntil(() => false, server.url, 2_500).catch(() => {}); // a few more ticks: nothing more is sent
    expect(receiver.received).toHaveLength(3);
    const log = await call("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: m.testKey, base: server.url });
    expect(log.body.data).toHaveLength(3);
    expect(log.body.data.every((a: { status: string; error: string }) => a.status === "failed" && a.error === "timeout")).toBe(true);
    const delivery = await isolatedDb().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(delivery).toMatchObject({ status: "failed", attempts: 3 });
  });

  it("rotation: during the overlap both secrets verify; after it only the new one", async () => {
    const m = await createIsolatedMerchant();
    const { receiver, endpoint } = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] });
    const rotated = await call("POST", `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      key: m.testKey,
      base: server.url,
      body: { previousSecretExpiresInSeconds: 3 },
    });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const [oldSecret, newSecret] = [endpoint.secret, rotated.body.secret];
    await paid(m.testKey);
    await tickUntil(() => receiver.received.length >= 1);
    const during = receiver.received[0];
    expect(String(during.headers["x-service-signature"]).match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhook(during.rawBody, String(during.headers["x-service-signature"]), oldSecret).id).toBe(during.event.id);
    expect(verifyWebhook(during.rawBody, String(during.headers["x-service-signature"]), newSecret).id).toBe(during.event.id);

    await new Promise((resolve) => setTimeout(resolve, 3_200));
    await paid(m.testKey);
    await tickUntil(() => receiver.received.length >= 2);
    const after = receiver.received[1];
    const header = String(after.headers["x-service-signature"]);
    expect(header.match(/v1=/g)).toHaveLength(1);
    expect(verifyWebhook(after.rawBody, header, newSecret).id).toBe(after.event.id);
    expect(() => verifyWebhook(after.rawBody, header, oldSecret)).toThrow();
  });

  it("POST /v1/events/:id/resend delivers the event again", async () => {
    const m = await createIsolatedMerchant();
    const { receiver, endpoint } = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] });
    await paid(m.testKey);
    await tickUntil(() => receiver.received.length >= 1);
    const eventId = receiver.received[0].event.id;
    const resent = await call("POST", `/v1/events/${eventId}/resend`, {
      key: m.testKey,
      base: server.url,
      body: { webhookEndpointId: endpoint.id },
    });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ object: "event_resend", eventId, queuedDeliveries: 1 });
    await tickUntil(() => receiver.received.length >= 2);
    expect(receiver.received[1].event.id).toBe(eventId);
    const other = await createIsolatedMerchant();
    expect((await call("POST", `/v1/events/${eventId}/resend`, { key: other.testKey, base: server.url, body: {} })).status).toBe(404);
  });
});

describe("endpoint health", () => {
  it("an endpoint failing without a single success for WEBHOOK_DISABLE_AFTER_HOURS is disabled", async () => {
    // 0.0005 h = 1.8 s of continuous failure, with retries every second.
    const strict = await startTestServer({
      DATABASE_URL: isolatedDatabaseUrl(),
      ...SENDER_ENV,
      WEBHOOK_RETRY_SCHEDULE: "1,1,1,1",
      WEBHOOK_DISABLE_AFTER_HOURS: "0.0005",
    });
    cleanups.push(() => strict.stop());
    const m = await createIsolatedMerchant();
    const { receiver, endpoint } = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] }, () => 500, strict.url);
    await paid(m.testKey, strict.url);
    let status = "enabled";
    for (let i = 0; i < 40 && status !== "disabled"; i++) {
      await tick(strict.url);
      status = (await call("GET", `/v1/webhook-endpoints/${endpoint.id}`, { key: m.testKey, base: strict.url })).body.status;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(status).toBe("disabled");
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
  });
});

describe("send-time SSRF guard", () => {
  it("a deployment's sender never connects to an internal address, in either mode, and logs only blocked_address", async () => {
    // A deployment (public BASE_URL); the endpoints are made while private addresses were allowed (or while
    // their name still resolved to a public address): the check at send time is what stops them.
    const deployment = { DATABASE_URL: isolatedDatabaseUrl(), ...SENDER_ENV, BASE_URL: "https://pay.example.com", LIVE_RAIL: "test" };
    const allowing = await startTestServer({ ...deployment, WEBHOOK_ALLOW_PRIVATE_URLS: "1" });
    const strict = await startTestServer(deployment);
    cleanups.push(
      () => allowing.stop(),
      () => strict.stop(),
    );
    const m = await createIsolatedMerchant();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const byName = receiver.url.replace("127.0.0.1", "localhost"); // resolved by DNS at send time
    const urls = [receiver.url, byName, "http://10.0.0.5:6379/", "http://169.254.169.254/latest/meta-data"];
    const endpoints: { id: string; key: string; url: string }[] = [];
    for (const key of [m.testKey, m.liveKey]) {
      for (const url of urls) {
        const created = await call("POST", "/v1/webhook-endpoints", {
          key,
          base: allowing.url,
          body: { url, enabledEvents: ["order.paid"] },
        });
        expect(created.status).toBe(201);
        endpoints.push({ id: created.body.id, key, url });
        // Deleted before the servers stop (cleanups run last-in first): nothing is ever sent there.
        cleanups.push(() => call("DELETE", `/v1/webhook-endpoints/${created.body.id}`, { key, base: allowing.url }));
      }
    }
    await paid(m.testKey, strict.url);
    await paid(m.liveKey, strict.url);
    await tickUntil(() => false, strict.url, 1_500).catch(() => {});
    for (const endpoint of endpoints) {
      const log = await call("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: endpoint.key, base: strict.url });
      expect(log.body.data.length, endpoint.url).toBeGreaterThan(0);
      for (const attempt of log.body.data)
        expect(attempt, endpoint.url).toMatchObject({ status: "failed", responseStatus: null, error: "blocked_address" });
      expect(JSON.stringify(log.body)).not.toMatch(/10\.0\.0\.5|169\.254|127\.0\.0\.1|localhost|not allowed|private|ECONN/);
    }
    expect(receiver.received).toHaveLength(0);
  });
});

describe("several senders", () => {
  it("two app processes ticking the same database deliver each attempt once", async () => {
    const second = await startTestServer({ DATABASE_URL: isolatedDatabaseUrl(), ...SENDER_ENV });
    cleanups.push(() => second.stop());
    const m = await createIsolatedMerchant();
    const { receiver } = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] });
    for (let i = 0; i < 15; i++) await paid(m.testKey);
    const stops = [startTicker(server.url, TEST_CRON_SECRET, 50), startTicker(second.url, TEST_CRON_SECRET, 50)];
    cleanups.push(() => stops.forEach((stop) => stop()));
    await receiver.waitFor((r) => r.length >= 15, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ids = receiver.received.map((d) => d.event.id);
    expect(ids).toHaveLength(15);
    expect(new Set(ids).size).toBe(15);
  });

  it("nothing is lost when the sender is killed (SIGKILL) during a send batch and restarted", async () => {
    const doomed = await startTestServer({
      DATABASE_URL: isolatedDatabaseUrl(),
      ...SENDER_ENV,
      WEBHOOK_TIMEOUT_MS: "2000",
      WEBHOOK_BATCH_SIZE: "20",
    });
    const m = await createIsolatedMerchant();
    // Slow answers keep the batch in flight long enough to kill the sender in the middle of it.
    const slow = await receiverFor(m.testKey, { enabledEvents: ["order.paid"] }, () => 200, doomed.url);
    let answering = false;
    slow.receiver.respond = () => (answering ? 200 : "hang");
    for (let i = 0; i < 10; i++) await paid(m.testKey, doomed.url);
    void tick(doomed.url).catch(() => {});
    await slow.receiver.waitFor((r) => r.length >= 10, 10_000);
    doomed.child.kill("SIGKILL");
    await new Promise((resolve) => doomed.child.once("exit", resolve));

    answering = true;
    const restarted = await startTestServer({
      DATABASE_URL: isolatedDatabaseUrl(),
      ...SENDER_ENV,
      WEBHOOK_TIMEOUT_MS: "2000",
      WEBHOOK_BATCH_SIZE: "20",
    });
    cleanups.push(() => restarted.stop());
    const firstBatch = new Set(slow.receiver.received.map((d) => d.event.id));
    // The killed sender's leases run out, then every event arrives again (same ids).
    await tickUntil(
      () => new Set(slow.receiver.received.filter((d, i) => i >= 10).map((d) => d.event.id)).size >= 10,
      restarted.url,
      30_000,
    );
    const redelivered = new Set(slow.receiver.received.slice(10).map((d) => d.event.id));
    expect(redelivered).toEqual(firstBatch);
  }, 90_000);
});
