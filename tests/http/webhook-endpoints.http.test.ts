// docs/webhooks.md: endpoint records, subscriptions, secrets shown once.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant();
});

describe("webhook endpoints", () => {
  it("create returns the secret once; get, list, update and delete never show it", async () => {
    const created = await call("POST", "/v1/webhook-endpoints", {
      key: m.testKey,
      body: { url: "http://127.0.0.1:9/hook", enabledEvents: ["order.paid"], description: "orders" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^we_[0-9A-Za-z]{24}$/),
      object: "webhook_endpoint",
      url: "http://127.0.0.1:9/hook",
      enabledEvents: ["order.paid"],
      status: "enabled",
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      livemode: false,
    });
    const id = created.body.id;
    const got = await call("GET", `/v1/webhook-endpoints/${id}`, { key: m.testKey });
    expect(got.body.secret).toBeUndefined();
    expect(got.body.url).toBe("http://127.0.0.1:9/hook");
    const list = await call("GET", "/v1/webhook-endpoints", { key: m.testKey });
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(list.body.data.every((e: { secret?: string }) => e.secret === undefined)).toBe(true);

    const updated = await call("PATCH", `/v1/webhook-endpoints/${id}`, { key: m.testKey, body: { enabledEvents: [], status: "disabled" } });
    expect(updated.body).toMatchObject({ enabledEvents: [], status: "disabled" });
    const rotated = await call("POST", `/v1/webhook-endpoints/${id}/rotate-secret`, { key: m.testKey, body: {} });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    const deleted = await call("DELETE", `/v1/webhook-endpoints/${id}`, { key: m.testKey });
    expect(deleted.body).toEqual({ id, object: "webhook_endpoint", deleted: true });
    expect((await call("GET", `/v1/webhook-endpoints/${id}`, { key: m.testKey })).status).toBe(404);
  });

  it("an idempotent create replays its secret, but stores it only encrypted", async () => {
    const headers = { "Idempotency-Key": `we-${Date.now()}` };
    const first = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, headers, body: { url: "http://127.0.0.1:9/idem" } });
    const replay = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, headers, body: { url: "http://127.0.0.1:9/idem" } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.secret).toBe(first.body.secret);
    const stored = await getDb().$queryRaw<{ response_body: string }[]>`
      SELECT response_body FROM idempotency_records WHERE key = ${headers["Idempotency-Key"]}`;
    expect(stored).toHaveLength(1);
    expect(stored[0].response_body).not.toContain("whsec_");
    expect(stored[0].response_body).not.toContain(first.body.secret.slice(6));
    const endpointRow = await getDb().webhookEndpoint.findUniqueOrThrow({ where: { id: first.body.id } });
    expect(JSON.stringify(endpointRow)).not.toContain(first.body.secret.slice(6));
  });

  it("refuses unknown event types, non-http URLs and unknown fields with 400", async () => {
    const unknownType = await call("POST", "/v1/webhook-endpoints", {
      key: m.testKey,
      body: { url: "http://127.0.0.1:9/h", enabledEvents: ["order.paid", "order.exploded"] },
    });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.error.details.fields[0].path).toBe("enabledEvents.1");
    for (const url of ["ftp://example.com/h", "not a url", "http://user:pw@127.0.0.1/h"]) {
      const res = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details.fields[0].path).toBe("url");
    }
  });

  it("another merchant's endpoint, or one of the other mode, is 404", async () => {
    const other = await createTestMerchant();
    const created = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, body: { url: "http://127.0.0.1:9/h" } });
    for (const key of [other.testKey, m.liveKey]) {
      expect((await call("GET", `/v1/webhook-endpoints/${created.body.id}`, { key })).status).toBe(404);
      expect((await call("DELETE", `/v1/webhook-endpoints/${created.body.id}`, { key })).status).toBe(404);
      expect((await call("GET", `/v1/webhook-endpoints/${created.body.id}/deliveries`, { key })).status).toBe(404);
    }
  });
});

// The address policy (both modes, BASE_URL's default, WEBHOOK_ALLOW_PRIVATE_URLS) is in webhook-ssrf.http.test.ts.
