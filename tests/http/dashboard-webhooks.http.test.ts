// The dashboard's webhook routes over real HTTP: every mutation needs the session, a same-origin Origin and
// the page's CSRF token (refused ones change nothing); another merchant's or the other mode's endpoint,
// event or meter is a 404 (routes and pages); the routes are the API's domain functions (what the
// dashboard makes, /v1 reads back); "send test event" queues a sample for that endpoint only.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { call } from "../helpers/http";
import { dashboardCall, dashboardPage, dashboardMerchant as merchant, type DashboardMerchant as Merchant } from "../helpers/dashboard";

const RECEIVER = "http://127.0.0.1:9/hooks"; // refuses every delivery

let a: Merchant;
let b: Merchant;
let endpointId = "";
let eventId = "";

beforeAll(async () => {
  // A acts in live mode too (its owner enrolled in two-factor sign-in, as the live-mode rule asks).
  [a, b] = await Promise.all([merchant("Owner of the endpoint", { twoFactor: true }), merchant("Someone else")]);
  const created = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
    body: { url: RECEIVER, enabledEvents: ["order.paid"] },
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
});

// The endpoint as its merchant set it: `failingSince` is the webhook sender's, and another file's tick may try the
// test event's delivery meanwhile (RECEIVER refuses it).
const endpointRow = async () => {
  const row = await getDb().webhookEndpoint.findUnique({ where: { id: endpointId } });
  return row && { ...row, failingSince: undefined };
};

// [label, method, path, body]: paths and bodies are read when a test runs (the ids exist by then).
const MUTATIONS: [string, string, () => string, () => unknown][] = [
  ["create", "POST", () => "/api/dashboard/webhook-endpoints", () => ({ url: RECEIVER })],
  ["disable", "PATCH", () => `/api/dashboard/webhook-endpoints/${endpointId}`, () => ({ status: "disabled" })],
  ["delete", "DELETE", () => `/api/dashboard/webhook-endpoints/${endpointId}`, () => ({})],
  ["rotate", "POST", () => `/api/dashboard/webhook-endpoints/${endpointId}/rotate-secret`, () => ({})],
  ["test event", "POST", () => `/api/dashboard/webhook-endpoints/${endpointId}/test-event`, () => ({})],
  ["resend", "POST", () => `/api/dashboard/events/${eventId}/resend`, () => ({ webhookEndpointId: endpointId })],
];

describe("guards: session, Origin, CSRF", () => {
  it.each(MUTATIONS)(
    "%s: 401 without a session, 403 without the CSRF token or from a foreign Origin, and nothing changes",
    async (_label, method, path, bodyOf) => {
      const body = bodyOf();
      const before = await endpointRow();
      // Merchant A's endpoints: other test files create their own meanwhile.
      const ownEndpoints = () => getDb().webhookEndpoint.count({ where: { merchantId: before!.merchantId } });
      const [endpoints, deliveries] = await Promise.all([ownEndpoints(), getDb().webhookDelivery.count({ where: { endpointId } })]);
      const noSession = await dashboardCall(null, method, path(), { body, csrfToken: a.csrfToken });
      expect(noSession.status).toBe(401);
      expect(noSession.body.error.code).toBe("UNAUTHORIZED");
      for (const override of [{ csrfToken: null }, { csrfToken: b.csrfToken }, { origin: "https://evil.example" }, { origin: null }]) {
        const res = await dashboardCall(a.session, method, path(), { body, csrfToken: a.csrfToken, ...override });
        expect(res.status, JSON.stringify(override)).toBe(403);
        expect(res.body).toEqual({ error: { code: "FORBIDDEN", message: expect.any(String), details: {} } });
      }
      expect(await endpointRow()).toEqual(before);
      expect(await ownEndpoints()).toBe(endpoints);
      expect(await getDb().webhookDelivery.count({ where: { endpointId } })).toBe(deliveries);
    },
  );
});

describe("another merchant, the other mode", () => {
  it.each(MUTATIONS.slice(1))(
    "%s of merchant A's endpoint by merchant B is 404 NOT_FOUND and changes nothing",
    async (_label, method, path, bodyOf) => {
      const body = bodyOf();
      const before = await endpointRow();
      const res = await dashboardCall(b.session, method, path(), { body, csrfToken: b.csrfToken });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
      // A's own live-mode page does not reach its test-mode endpoint either.
      const otherMode = await dashboardCall(a.session, method, path(), { body, csrfToken: a.csrfToken, mode: "live" });
      expect(otherMode.status).toBe(404);
      expect(await endpointRow()).toEqual(before);
    },
  );

  it("merchant B's pages for A's endpoint and meter are the 404 page; A's are not", async () => {
    const customer = await call("POST", "/v1/customers", { key: a.key, body: { name: "Agent" } });
    const meter = await call("POST", "/v1/meters", {
      key: a.key,
      body: { customerId: customer.body.id, currency: "usd", thresholdMinor: 100, prepaid: false },
    });
    expect(meter.status).toBe(201);
    for (const path of [`/dashboard/webhooks/${endpointId}`, `/dashboard/meters/${meter.body.id}`]) {
      const mine = await dashboardPage(a.session, path);
      expect(mine.status, path).toBe(200);
      const theirs = await dashboardPage(b.session, path);
      expect(theirs.status, path).toBe(404);
      expect(theirs.html).toContain("Page not found");
      expect(theirs.html).not.toContain(endpointId === path.split("/").pop() ? RECEIVER : meter.body.customerId);
    }
    // A cursor from another merchant's list is the 404 page, not an error.
    expect((await dashboardPage(b.session, `/dashboard/webhooks?startingAfter=${endpointId}`)).status).toBe(404);
  });
});

describe("same domain functions as /v1", () => {
  it("an endpoint made in the dashboard is read back by /v1 without its secret; bad input is 400 with field errors", async () => {
    const created = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: RECEIVER, description: "from the dashboard" },
      csrfToken: a.csrfToken,
    });
    expect(created.body.secret).toMatch(/^whsec_/);
    const { secret, ...rest } = created.body;
    const viaApi = await call("GET", `/v1/webhook-endpoints/${created.body.id}`, { key: a.key });
    expect(viaApi.body).toEqual(rest);
    expect(JSON.stringify(viaApi.body)).not.toContain(secret);

    const bad = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: RECEIVER, enabledEvents: ["order.paid", "order.exploded"] },
      csrfToken: a.csrfToken,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual([expect.objectContaining({ path: "enabledEvents.1" })]);
    const notHttp = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: "ftp://example.com/x" },
      csrfToken: a.csrfToken,
    });
    expect(notHttp.status).toBe(400);
    const badType = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${created.body.id}/test-event`, {
      body: { type: "nope" },
      csrfToken: a.csrfToken,
    });
    expect(badType.status).toBe(400);
    expect(badType.body.error.details.fields[0].path).toBe("type");
  });

  it("secrets made in the dashboard with an Idempotency-Key replay, but are stored only encrypted", async () => {
    const secretsFrom = async (path: string, body: unknown) => {
      const headers = { "Idempotency-Key": `dash-secret-${Math.random()}` };
      const first = await dashboardCall(a.session, "POST", path, { body, csrfToken: a.csrfToken, headers });
      const replay = await dashboardCall(a.session, "POST", path, { body, csrfToken: a.csrfToken, headers });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body.secret).toBe(first.body.secret);
      const [stored] = await getDb().$queryRaw<{ response_body: string }[]>`
        SELECT response_body FROM idempotency_records WHERE key = ${headers["Idempotency-Key"]}`;
      expect(stored.response_body).not.toContain(first.body.secret);
      expect(stored.response_body).not.toContain("whsec_");
    };
    await secretsFrom("/api/dashboard/webhook-endpoints", { url: RECEIVER });
    await secretsFrom(`/api/dashboard/webhook-endpoints/${endpointId}/rotate-secret`, {});
  });

  it("rotate returns a new secret once; the endpoint then reports until when the previous one signs", async () => {
    const rotated = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${endpointId}/rotate-secret`, {
      body: {},
      csrfToken: a.csrfToken,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(expires - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const viaApi = await call("GET", `/v1/webhook-endpoints/${endpointId}`, { key: a.key });
    expect(viaApi.body.secret).toBeUndefined();
    expect(viaApi.body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);
  });

  it("send test event: an event of the real type with a sample object, queued for that endpoint only; 409 when disabled", async () => {
    const other = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: RECEIVER },
      csrfToken: a.csrfToken,
    });
    const sent = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${endpointId}/test-event`, {
      body: { type: "payment_intent.captured" },
      csrfToken: a.csrfToken,
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      object: "webhook_test_event",
      eventId: expect.stringMatching(/^evt_/),
      type: "payment_intent.captured",
      webhookEndpointId: endpointId,
    });
    const event = await call("GET", `/v1/events/${sent.body.eventId}`, { key: a.key });
    expect(event.body).toMatchObject({
      type: "payment_intent.captured",
      livemode: false,
      data: {
        object: { object: "payment_intent", id: "pi_000000000000000000000000", status: "captured", amount: 5400, amountCaptured: 5400 },
      },
    });
    const queued = await getDb().webhookDelivery.findMany({ where: { eventId: sent.body.eventId } });
    expect(queued.map((d) => [d.endpointId, d.status])).toEqual([[endpointId, "pending"]]);
    expect(other.body.id).not.toBe(endpointId);
    // No type given: the endpoint's first subscribed type.
    const refundsOnly = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: RECEIVER, enabledEvents: ["payment_intent.refunded"] },
      csrfToken: a.csrfToken,
    });
    const byDefault = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${refundsOnly.body.id}/test-event`, {
      body: {},
      csrfToken: a.csrfToken,
    });
    expect(byDefault.body.type).toBe("payment_intent.refunded");

    await dashboardCall(a.session, "PATCH", `/api/dashboard/webhook-endpoints/${other.body.id}`, {
      body: { status: "disabled" },
      csrfToken: a.csrfToken,
    });
    const refused = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${other.body.id}/test-event`, {
      body: {},
      csrfToken: a.csrfToken,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("CONFLICT");
  });

  it("send test event is refused in live mode (403), so a live account's events are all real", async () => {
    const liveSamples = () => getDb().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM events WHERE livemode AND data->'object'->>'id' LIKE '%\_000000000000000000000000'`;
    const liveEndpoint = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: "https://93.184.216.34/hooks" },
      csrfToken: a.csrfToken,
      mode: "live",
    });
    expect(liveEndpoint.status).toBe(201);
    const live = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${liveEndpoint.body.id}/test-event`, {
      body: {},
      csrfToken: a.csrfToken,
      mode: "live",
    });
    expect(live.status).toBe(403);
    expect(live.body.error).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("test mode only") });
    expect((await liveSamples())[0].n).toBe(0n);
  });

  it("resend from the dashboard queues the event again for the endpoint; delete removes it for /v1 too", async () => {
    const resent = await dashboardCall(a.session, "POST", `/api/dashboard/events/${eventId}/resend`, {
      body: { webhookEndpointId: endpointId },
      csrfToken: a.csrfToken,
    });
    expect(resent.body).toEqual({ object: "event_resend", eventId, queuedDeliveries: 1 });
    const made = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
      body: { url: RECEIVER },
      csrfToken: a.csrfToken,
    });
    const deleted = await dashboardCall(a.session, "DELETE", `/api/dashboard/webhook-endpoints/${made.body.id}`, {
      body: {},
      csrfToken: a.csrfToken,
    });
    expect(deleted.body).toEqual({ id: made.body.id, object: "webhook_endpoint", deleted: true });
    expect((await call("GET", `/v1/webhook-endpoints/${made.body.id}`, { key: a.key })).status).toBe(404);
  });
});
