// Issue 14, item 2: the webhook address policy applies in both modes. A deployment (BASE_URL a public
// address) refuses endpoints on loopback, private and link-local addresses for test keys as for live
// ones, at creation and update; and the delivery log (API and dashboard) shows a coarse error class,
// never the raw connection error (no port-scan oracle). Sending is checked in webhook-delivery.http.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { dashboardCall, dashboardPage, dashboardMerchant, type DashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

// IP literals in every form the URL parser accepts, and names resolving to them.
const INTERNAL = [
  "http://10.0.0.5:6379/",
  "http://127.0.0.1:5432/h",
  "http://169.254.169.254/latest/meta-data",
  "http://localhost:3000/h",
  "http://192.168.0.10:8080/h",
  "http://100.64.0.1/h",
  "http://[::1]/h",
  "http://[::ffff:127.0.0.1]/h",
  "http://2130706433/h",
  "http://0x7f000001/h",
  "http://0177.0.0.1/h",
  "https://[fd00::1]/h",
  "http://[fe80::1]/h",
  "http://0.0.0.0/h",
];
const DELIVERY_ERROR_CLASSES = [
  "timeout",
  "connection_refused",
  "connection_reset",
  "tls_error",
  "dns_error",
  "blocked_address",
  "http_error",
  "connection_error",
  "endpoint_disabled",
  "internal_error",
];

let deployed: ServerProcess;
let m: TestMerchant;
beforeAll(async () => {
  [deployed, m] = await Promise.all([startTestServer({ BASE_URL: "https://pay.example.com" }), createTestMerchant("SSRF")]);
});
afterAll(() => deployed?.stop());

describe("a deployment (public BASE_URL)", () => {
  it.each(INTERNAL)("refuses a test-mode and a live-mode endpoint at %s with 400", async (url) => {
    for (const key of [m.testKey, m.liveKey]) {
      const res = await call("POST", "/v1/webhook-endpoints", { key, body: { url }, base: deployed.url });
      expect(res.status, `${url} ${key.slice(0, 7)}`).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.fields[0]).toMatchObject({
        path: "url",
        message: expect.stringMatching(/private|loopback|link-local/),
      });
    }
  });

  it("refuses an update of a test-mode endpoint to an internal address", async () => {
    const created = await call("POST", "/v1/webhook-endpoints", {
      key: m.testKey,
      body: { url: "https://hooks.example.com/h" },
      base: deployed.url,
    });
    expect(created.status).toBe(201);
    for (const url of ["http://10.0.0.5:6379/", "http://169.254.169.254/latest/meta-data", "http://127.0.0.1:9/h"]) {
      const res = await call("PATCH", `/v1/webhook-endpoints/${created.body.id}`, { key: m.testKey, body: { url }, base: deployed.url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details.fields[0].path).toBe("url");
    }
    const unchanged = await call("GET", `/v1/webhook-endpoints/${created.body.id}`, { key: m.testKey, base: deployed.url });
    expect(unchanged.body.url).toBe("https://hooks.example.com/h");
    await call("DELETE", `/v1/webhook-endpoints/${created.body.id}`, { key: m.testKey, base: deployed.url });
  });

  it("with WEBHOOK_ALLOW_PRIVATE_URLS=1 it accepts them, in both modes", async () => {
    const allowing = await startTestServer({ BASE_URL: "https://pay.example.com", WEBHOOK_ALLOW_PRIVATE_URLS: "1" });
    try {
      for (const key of [m.testKey, m.liveKey]) {
        const res = await call("POST", "/v1/webhook-endpoints", { key, body: { url: "http://127.0.0.1:9/h" }, base: allowing.url });
        expect(res.status).toBe(201);
        await call("DELETE", `/v1/webhook-endpoints/${res.body.id}`, { key, base: allowing.url });
      }
    } finally {
      await allowing.stop();
    }
  });
});

describe("a local installation (loopback BASE_URL, the default of the test servers)", () => {
  it("accepts endpoints on loopback in both modes (local receivers), unless WEBHOOK_ALLOW_PRIVATE_URLS=0", async () => {
    for (const key of [m.testKey, m.liveKey]) {
      const res = await call("POST", "/v1/webhook-endpoints", { key, body: { url: "http://127.0.0.1:9/h" } });
      expect(res.status).toBe(201);
      await call("DELETE", `/v1/webhook-endpoints/${res.body.id}`, { key });
    }
    const strictLocal = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: "0" });
    try {
      const res = await call("POST", "/v1/webhook-endpoints", {
        key: m.testKey,
        body: { url: "http://127.0.0.1:9/h" },
        base: strictLocal.url,
      });
      expect(res.status).toBe(400);
    } finally {
      await strictLocal.stop();
    }
  });
});

describe("the delivery log", () => {
  let a: DashboardMerchant;
  let endpointId: string;
  let eventId: string;
  beforeAll(async () => {
    a = await dashboardMerchant("Delivery log classes");
    // Nothing listens on the discard port: every attempt is refused.
    const created = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: "http://127.0.0.1:9/closed" },
      csrfToken: a.csrfToken,
    });
    expect(created.status).toBe(201);
    endpointId = created.body.id;
    const sent = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${endpointId}/test-event`, {
      body: { type: "order.paid" },
      csrfToken: a.csrfToken,
    });
    expect(sent.status).toBe(201);
    eventId = sent.body.eventId;
    for (let i = 0; i < 50; i++) {
      await tick();
      const log = await call("GET", `/v1/webhook-endpoints/${endpointId}/deliveries`, { key: a.key });
      if (log.body.data.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    if (endpointId) await call("DELETE", `/v1/webhook-endpoints/${endpointId}`, { key: a.key });
  });

  it("GET /v1/webhook-endpoints/:id/deliveries gives the class of a refused connection, not the socket error", async () => {
    const log = await call("GET", `/v1/webhook-endpoints/${endpointId}/deliveries`, { key: a.key });
    expect(log.body.data.length).toBeGreaterThan(0);
    expect(log.body.data[0]).toMatchObject({ status: "failed", responseStatus: null, error: "connection_refused" });
    for (const attempt of log.body.data) expect(DELIVERY_ERROR_CLASSES).toContain(attempt.error);
    expect(JSON.stringify(log.body)).not.toMatch(/ECONNREFUSED|connect /);
  });

  it("the dashboard's endpoint, event and home pages show the class too", async () => {
    for (const path of [`/dashboard/webhooks/${endpointId}`, `/dashboard/events/${eventId}`, "/dashboard"]) {
      const page = await dashboardPage(a.session, path);
      expect(page.status, path).toBe(200);
      expect(/ECONNREFUSED|connect /.test(page.html), `${path} shows a raw socket error`).toBe(false);
    }
    expect((await dashboardPage(a.session, `/dashboard/webhooks/${endpointId}`)).html).toContain("connection_refused");
  });
});
