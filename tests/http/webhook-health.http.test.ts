// The delivery log polish (issue 20, Build item 5): per endpoint the success rate and p50 latency of the
// last 24 h (API and the dashboard's endpoint page), and "replay all failed since ..." queuing every failed
// delivery again in one statement.
import { afterAll, describe, expect, it } from "vitest";
import { dashboardCall, dashboardMerchant, dashboardPage } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { capture, openCheckout, sleep, tick } from "../helpers/payments";
import { startReceiver } from "../helpers/webhook-receiver";

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("endpoint health and replay of failed deliveries", () => {
  it("shows 24 h success rate and p50, and replays every failed delivery since a time", async () => {
    const m = await dashboardMerchant("Health merchant");
    const receiver = await startReceiver(() => 500);
    cleanups.push(() => receiver.close());
    const endpoint = (
      await call("POST", "/v1/webhook-endpoints", { key: m.key, body: { url: receiver.url, enabledEvents: ["order.paid"] } })
    ).body;
    const since = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < 2; i++) {
      const checkout = await openCheckout(m.key, { amount: 800 + i });
      expect((await capture(m.key, checkout.id)).status).toBe(200);
    }
    // The default schedule's first retry is a minute away: after one failed attempt each, mark them failed as
    // a used-up schedule would (the sender's own path to `failed` is covered by webhook-delivery.http).
    const deadline = Date.now() + 15_000;
    while (receiver.received.length < 2 && Date.now() < deadline) {
      await tick();
      await sleep(100);
    }
    expect(receiver.received).toHaveLength(2);
    const { getDb } = await import("../../lib/db");
    await getDb().webhookDelivery.updateMany({ where: { endpointId: endpoint.id }, data: { status: "failed" } });

    const health = await call("GET", `/v1/webhook-endpoints/${endpoint.id}/health`, { key: m.key });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      object: "webhook_endpoint_health",
      attempts: 2,
      succeeded: 0,
      successRate: 0,
      p50LatencyMs: expect.any(Number),
    });

    receiver.respond = () => 200;
    const replay = await dashboardCall(m.session, "POST", `/api/dashboard/webhook-endpoints/${endpoint.id}/replay-failed`, {
      body: { since },
      csrfToken: m.csrfToken,
    });
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body).toMatchObject({ object: "webhook_replay", requeuedDeliveries: 2 });
    while (receiver.received.length < 4 && Date.now() < deadline + 15_000) {
      await tick();
      await sleep(100);
    }
    expect(receiver.received).toHaveLength(4);
    const after = (await call("GET", `/v1/webhook-endpoints/${endpoint.id}/health`, { key: m.key })).body;
    expect(after).toMatchObject({ attempts: 4, succeeded: 2, successRate: 0.5 });
    // Nothing failed since now: nothing to replay; another merchant's key cannot.
    expect(
      (await call("POST", `/v1/webhook-endpoints/${endpoint.id}/replay-failed`, { key: m.key, body: {} })).body.requeuedDeliveries,
    ).toBe(0);
    const other = await dashboardMerchant("Other");
    expect((await call("POST", `/v1/webhook-endpoints/${endpoint.id}/replay-failed`, { key: other.key, body: {} })).status).toBe(404);

    const page = await dashboardPage(m.session, `/dashboard/webhooks/${endpoint.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="endpoint-health"');
    const text = page.html.replaceAll("<!-- -->", "");
    expect(text).toContain('<span data-testid="success-rate">50.0%</span> of 4 attempts succeeded; p50 latency');
    expect(page.html).toContain("Replay failed…");
  });
});
