// Reads never write (docs/architecture.md "Expiry"): an open checkout past its deadline, its PaymentIntent and
// its order read as expired (canceled) on every read path, computed from expiresAt, while the database stays
// exactly as it was: no row changes, no event, no webhook delivery. The tick alone writes the transition and
// its events, once, and what it writes is what the reads showed. A capture or cancel of an overdue checkout is
// refused without writing. On a database and server of this file's own: nothing but this file ticks them.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { dashboardMerchant, type DashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { connectWithBearer } from "../helpers/oauth";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { capture, openCheckout, sleep, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let database: OwnDatabase;
let server: ServerProcess;
let receiver: Receiver;
let m: DashboardMerchant;
let mcp: Client;

beforeAll(async () => {
  database = await ownDatabase("expiry_reads");
  server = await startTestServer({ DATABASE_URL: database.url });
  receiver = await startReceiver();
  m = await dashboardMerchant("Expiry reads", { base: server.url });
  const endpoint = await call("POST", "/v1/webhook-endpoints", { key: m.key, base: server.url, body: { url: receiver.url } });
  expect(endpoint.status).toBe(201);
  mcp = await connectWithBearer(server.url, m.key);
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await receiver?.close();
  await server?.stop();
  await database?.drop();
});

interface Opened {
  id: string;
  paymentIntentId: string;
  orderId: string;
}

/** What a read could have written: the three rows (status and updated_at), the events, the webhook deliveries. */
async function written(checkout: Opened) {
  const [row] = await database.db.$queryRaw<Record<string, unknown>[]>`
    SELECT c.status AS checkout, c.updated_at AS "checkoutUpdatedAt", pi.status AS "paymentIntent", pi.updated_at AS "paymentIntentUpdatedAt",
           o.status AS "order", o.updated_at AS "orderUpdatedAt",
           (SELECT count(*)::int FROM events WHERE merchant_id = c.merchant_id) AS events,
           (SELECT count(*)::int FROM webhook_deliveries) AS deliveries,
           (SELECT count(*)::int FROM payment_attempts WHERE payment_intent_id = pi.id) AS attempts
      FROM checkouts c JOIN payment_intents pi ON pi.id = c.payment_intent_id JOIN orders o ON o.id = c.order_id
     WHERE c.id = ${checkout.id}`;
  return row;
}

const get = async (path: string) => {
  const res = await call("GET", path, { key: m.key, base: server.url });
  expect(res.status, path).toBe(200);
  return res.body;
};
const ids = async (path: string) => (await get(path)).data.map((object: { id: string }) => object.id);
const statusIn = async (path: string, id: string) => (await get(path)).data.find((object: { id: string }) => object.id === id)?.status;

async function tool(name: string, args: Record<string, unknown>) {
  const result: any = await mcp.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return result.structuredContent;
}

async function page(path: string): Promise<string> {
  const res = await fetch(`${server.url}${path}`, { headers: { Cookie: m.session.cookie }, redirect: "manual" });
  expect(res.status, path).toBe(200);
  return res.text();
}
/** The status badge of a dashboard page's header (its first StatusBadge). */
const badgeOf = (html: string) => /data-testid="status"[^>]*>([^<]*)</.exec(html)?.[1];

/** The one merchant of this file's database. */
async function merchantId(): Promise<string> {
  return (await database.db.merchant.findFirstOrThrow({ select: { id: true } })).id;
}

async function eventTypesOf(objectId: string): Promise<string[]> {
  const events = (await get("/v1/events?limit=100")).data;
  return events.filter((event: any) => event.data.object.id === objectId).map((event: any) => event.type);
}

describe("an overdue open checkout on every read path", () => {
  it("reads as expired everywhere while nothing is written; the tick writes once what the reads showed", async () => {
    const overdue: Opened = await openCheckout(m.key, { expiresInSeconds: 1 }, server.url);
    const fresh: Opened = await openCheckout(m.key, {}, server.url);
    await sleep(1100);
    const before = await written(overdue);
    expect(before).toMatchObject({ checkout: "open", paymentIntent: "requires_payment", order: "pending", events: 0, deliveries: 0 });

    // /v1: one object, listed, and the status filters.
    const shown = {
      checkout: await get(`/v1/checkouts/${overdue.id}`),
      paymentIntent: await get(`/v1/payment_intents/${overdue.paymentIntentId}`),
      order: await get(`/v1/orders/${overdue.orderId}`),
    };
    expect(shown.checkout.status).toBe("expired");
    expect(shown.paymentIntent.status).toBe("expired");
    expect(shown.order.status).toBe("canceled");
    expect(await statusIn("/v1/checkouts", overdue.id)).toBe("expired");
    expect(await ids("/v1/checkouts?status=expired")).toEqual([overdue.id]);
    expect(await ids("/v1/checkouts?status=open")).toEqual([fresh.id]);
    expect(await statusIn("/v1/payment_intents", overdue.paymentIntentId)).toBe("expired");
    expect(await ids("/v1/payment_intents?status=expired")).toEqual([overdue.paymentIntentId]);
    expect(await ids("/v1/payment_intents?status=requires_payment")).toEqual([fresh.paymentIntentId]);
    expect(await statusIn("/v1/orders", overdue.orderId)).toBe("canceled");
    expect(await ids("/v1/orders?status=canceled")).toEqual([overdue.orderId]);
    expect(await ids("/v1/orders?status=pending")).toEqual([fresh.orderId]);
    // A list page after a cursor keeps the filter.
    expect(await ids(`/v1/checkouts?status=expired&startingAfter=${fresh.id}`)).toEqual([overdue.id]);

    // MCP tools.
    expect(await tool("get_checkout", { id: overdue.id })).toEqual(shown.checkout);
    expect(await tool("get_payment", { id: overdue.paymentIntentId })).toEqual(shown.paymentIntent);
    expect(await tool("get_order", { id: overdue.orderId })).toEqual(shown.order);
    expect((await tool("list_orders", { status: "canceled" })).data).toEqual([shown.order]);
    expect((await tool("list_orders", { status: "pending" })).data.map((o: Opened) => o.id)).toEqual([fresh.orderId]);
    expect((await tool("list_payments", { status: "expired" })).data).toEqual([shown.paymentIntent]);
    expect((await tool("list_payments", { status: "requires_payment" })).data.map((p: Opened) => p.id)).toEqual([fresh.paymentIntentId]);

    // The dashboard's pages and its API (the payments export).
    expect(badgeOf(await page(`/dashboard/checkouts/${overdue.id}`))).toBe("Expired");
    expect(badgeOf(await page(`/dashboard/payments/${overdue.paymentIntentId}`))).toBe("Expired");
    expect(badgeOf(await page(`/dashboard/orders/${overdue.orderId}`))).toBe("Canceled");
    expect(await page("/dashboard/orders?status=canceled")).toContain(overdue.orderId);
    expect(await page("/dashboard/payments?status=expired")).toContain(overdue.paymentIntentId);
    expect(await page("/dashboard/checkouts")).toContain(overdue.id);
    expect(await page("/dashboard")).toContain(overdue.orderId);
    const csv = await page("/api/dashboard/payments/export?status=expired");
    expect(csv.split("\r\n").filter((line) => line.startsWith("pi_"))).toEqual([expect.stringContaining(`${overdue.paymentIntentId},`)]);
    expect(csv).toContain(",expired,");

    // The public pay page, and the paywall's verify (a read: "verifying changes nothing").
    const payPage = await (await fetch(`${server.url}/pay/${overdue.id}`)).text();
    expect(payPage).toContain("This checkout has expired");
    const verify = await call("POST", "/v1/paywall/verify", {
      key: m.key,
      base: server.url,
      body: { paymentIntentId: overdue.paymentIntentId, merchantId: await merchantId(), amount: 1000, currency: "usd", sku: "any" },
    });
    expect(verify.body).toEqual({ valid: false, reasonCode: "not_captured", details: { paymentIntentStatus: "expired" } });

    // Not one of those reads wrote anything.
    expect(await written(overdue)).toEqual(before);

    // The tick writes the transition and its events, once; what it wrote reads exactly as the reads showed.
    await tick(server.url);
    expect(await written(overdue)).toMatchObject({
      checkout: "expired",
      paymentIntent: "expired",
      order: "canceled",
      events: 2,
      deliveries: 2,
    });
    expect(await get(`/v1/checkouts/${overdue.id}`)).toEqual(shown.checkout);
    expect(await get(`/v1/payment_intents/${overdue.paymentIntentId}`)).toEqual(shown.paymentIntent);
    expect(await get(`/v1/orders/${overdue.orderId}`)).toEqual(shown.order);
    const events = (await get("/v1/events?limit=100")).data;
    expect(events.find((event: any) => event.type === "payment_intent.expired").data.object).toEqual(shown.paymentIntent);
    expect(events.find((event: any) => event.type === "order.canceled").data.object).toEqual(shown.order);
    await tick(server.url);
    expect(await eventTypesOf(overdue.paymentIntentId)).toEqual(["payment_intent.expired"]);
    expect(await eventTypesOf(overdue.orderId)).toEqual(["order.canceled"]);
    await receiver.waitFor((received) => received.length === 2);
  });

  it("a capture or cancel of an overdue checkout is refused (409 expired) and writes nothing; the tick expires it", async () => {
    const overdue: Opened = await openCheckout(m.key, { expiresInSeconds: 1 }, server.url);
    await sleep(1100);
    const before = await written(overdue);
    expect(before).toMatchObject({ checkout: "open", paymentIntent: "requires_payment", order: "pending" });
    const captured = await capture(m.key, overdue.id, "pm_card_visa", { base: server.url });
    expect(captured.status).toBe(409);
    expect(captured.body.error).toMatchObject({ code: "CONFLICT", details: { id: overdue.id, status: "expired" } });
    const canceled = await call("POST", `/v1/checkouts/${overdue.id}/cancel`, { key: m.key, base: server.url });
    expect(canceled.status).toBe(409);
    expect(canceled.body.error.details).toEqual({ id: overdue.id, status: "expired" });
    expect(await written(overdue)).toEqual(before);

    await tick(server.url);
    expect(await written(overdue)).toMatchObject({ checkout: "expired", paymentIntent: "expired", order: "canceled", attempts: 0 });
    expect(await eventTypesOf(overdue.paymentIntentId)).toEqual(["payment_intent.expired"]);
    expect(await eventTypesOf(overdue.orderId)).toEqual(["order.canceled"]);
  });

  it("an overdue checkout whose charge is still unresolved reads as open, as the tick leaves it, until the tick decides", async () => {
    const inFlight: Opened = await openCheckout(m.key, { expiresInSeconds: 1 }, server.url);
    // A capture's attempt, committed before its rail call (lib/payments/charge-attempts.ts): in flight, or left by a crash.
    await database.db.$executeRaw`
      INSERT INTO payment_attempts (id, payment_intent_id, rail, charge_key, payment_method, status)
      VALUES (${`pa_${inFlight.id}`}, ${inFlight.paymentIntentId}, 'test', ${`key_${inFlight.id}`}, 'pm_card_visa', 'pending')`;
    await sleep(1100);
    const readAll = async () => [
      (await get(`/v1/checkouts/${inFlight.id}`)).status,
      (await get(`/v1/payment_intents/${inFlight.paymentIntentId}`)).status,
      (await get(`/v1/orders/${inFlight.orderId}`)).status,
      (await ids("/v1/checkouts?status=open")).includes(inFlight.id),
    ];
    expect(await readAll()).toEqual(["open", "requires_payment", "pending", true]);
    await tick(server.url); // the rail does not know the charge yet, and it is young: the tick leaves it open
    expect(await written(inFlight)).toMatchObject({ checkout: "open", paymentIntent: "requires_payment", order: "pending" });
    expect(await readAll()).toEqual(["open", "requires_payment", "pending", true]);

    // Long past any rail call: the tick abandons the attempt and expires the checkout, and the reads agree.
    await database.db.$executeRaw`UPDATE payment_attempts SET created_at = now() - interval '1 hour' WHERE id = ${`pa_${inFlight.id}`}`;
    await tick(server.url);
    expect(await readAll()).toEqual(["expired", "expired", "canceled", false]);
    expect(await eventTypesOf(inFlight.paymentIntentId)).toEqual(["payment_intent.expired"]);
  });
});
