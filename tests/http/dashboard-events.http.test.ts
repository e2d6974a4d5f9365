// The dashboard's events pages over real HTTP: the list is GET /v1/events page by page (newest first, 20 a
// page, "Next page" with the last id as cursor, ?type= filter); an event's page shows its deliveries; another
// merchant's or the other mode's event id, and a foreign cursor, are the 404 page.
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { dashboardCall, dashboardPage, dashboardMerchant as merchant, type DashboardMerchant as Merchant } from "../helpers/dashboard";

const RECEIVER = "http://127.0.0.1:9/hooks"; // never ticked here: nothing is sent
const TYPES = ["order.paid", "payment_intent.captured"] as const;
const COUNT = 23;

/** The event ids of a rendered events page, in order (rows carry data-id), and its "Next page" cursor. */
function rowsOf(html: string) {
  const ids = [...html.matchAll(/data-testid="row" data-id="(evt_[A-Za-z0-9]+)"/g)].map((match) => match[1]);
  const link = /<a [^>]*rel="next"[^>]*>/.exec(html)?.[0];
  const next = link
    ? (/href="\/dashboard\/events\?(?:type=[a-z_.]+&amp;)?startingAfter=(evt_[A-Za-z0-9]+)"/.exec(link)?.[1] ?? null)
    : null;
  return { ids, next };
}

let a: Merchant;
let b: Merchant;
let endpointId = "";
let apiIds: string[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([merchant("Event Owner"), merchant("Event Stranger")]);
  const created = await dashboardCall(a.session, "POST", "/api/dashboard/webhook-endpoints", {
    body: { url: RECEIVER },
    csrfToken: a.csrfToken,
  });
  expect(created.status).toBe(201);
  endpointId = created.body.id;
  // Test events are real events of the account (listed by GET /v1/events), one per call.
  for (let i = 0; i < COUNT; i++) {
    const sent = await dashboardCall(a.session, "POST", `/api/dashboard/webhook-endpoints/${endpointId}/test-event`, {
      body: { type: TYPES[i % 2] },
      csrfToken: a.csrfToken,
    });
    expect(sent.status).toBe(201);
  }
  const all = await call("GET", "/v1/events?limit=100", { key: a.key });
  apiIds = all.body.data.map((event: { id: string }) => event.id);
  expect(apiIds).toHaveLength(COUNT);
});

describe("list", () => {
  it("is GET /v1/events: newest first, 20 a page, then the rest after the Next page cursor", async () => {
    const first = await dashboardPage(a.session, "/dashboard/events");
    expect(first.status).toBe(200);
    const page1 = rowsOf(first.html);
    expect(page1.ids).toEqual(apiIds.slice(0, 20));
    expect(page1.next).toBe(apiIds[19]);
    const second = rowsOf((await dashboardPage(a.session, `/dashboard/events?startingAfter=${page1.next}`)).html);
    expect(second.ids).toEqual(apiIds.slice(20));
    expect(second.next).toBeNull();
  });

  it("?type= shows that type only, paginated with the filter kept; an unknown type shows all", async () => {
    const api = await call("GET", "/v1/events?type=order.paid&limit=100", { key: a.key });
    const paid = api.body.data.map((event: { id: string }) => event.id);
    expect(paid).toHaveLength(Math.ceil(COUNT / 2));
    const filtered = rowsOf((await dashboardPage(a.session, "/dashboard/events?type=order.paid")).html);
    expect(filtered.ids).toEqual(paid);
    expect(filtered.next).toBeNull();
    const unknown = rowsOf((await dashboardPage(a.session, "/dashboard/events?type=nope")).html);
    expect(unknown.ids).toEqual(apiIds.slice(0, 20));
  });

  it("another merchant sees none of them, and A's id as B's cursor is the 404 page", async () => {
    expect(rowsOf((await dashboardPage(b.session, "/dashboard/events")).html).ids).toEqual([]);
    expect((await dashboardPage(b.session, `/dashboard/events?startingAfter=${apiIds[3]}`)).status).toBe(404);
  });
});

describe("detail", () => {
  it("shows the event's JSON and its delivery (queued for the endpoint, not attempted yet) with a resend", async () => {
    const page = await dashboardPage(a.session, `/dashboard/events/${apiIds[0]}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`&quot;id&quot;: &quot;${apiIds[0]}&quot;`);
    expect(page.html).toContain(RECEIVER);
    expect(page.html).toContain(`href="/dashboard/webhooks/${endpointId}"`);
    expect(page.html).toContain('data-status="queued"');
    expect(page.html).toContain(`aria-label="Resend to ${RECEIVER}"`);
  });

  it("another merchant, the other mode, and an unknown id are the 404 page", async () => {
    expect((await dashboardPage(b.session, `/dashboard/events/${apiIds[0]}`)).status).toBe(404);
    const live = { ...a.session, cookie: `${a.session.cookie}; aps_dashboard_mode=live` };
    expect((await dashboardPage(live, `/dashboard/events/${apiIds[0]}`)).status).toBe(404);
    expect((await dashboardPage(live, "/dashboard/events")).html).not.toContain(apiIds[0]);
    expect((await dashboardPage(a.session, "/dashboard/events/evt_doesnotexist0000000000000")).status).toBe(404);
  });
});
