// Reads of an overdue checkout's PaymentIntent and order see it expired at once, one or listed, with no
// checkout read first: the /v1 readers of orders and PaymentIntents go through lib/checkouts/read-after-expiry.ts.
// On a database and server of this file's own: another file's tick expiring the same checkout at that very
// moment would hold its row lock, and a read leaves a locked checkout to whoever holds it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { ownDatabase, type OwnDatabase } from "../helpers/own-database";
import { openCheckout, sleep, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let database: OwnDatabase;
let server: ServerProcess;
beforeAll(async () => {
  database = await ownDatabase("expiry_reads");
  server = await startTestServer({ DATABASE_URL: database.url });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function eventTypesOf(key: string, objectId: string): Promise<string[]> {
  const events = (await call("GET", "/v1/events?limit=100", { key, base: server.url })).body.data;
  return events.filter((event: any) => event.data.object.id === objectId).map((event: any) => event.type);
}

describe("expiry on reads of the objects a checkout owns", () => {
  it("a read of the PaymentIntent or the order alone, one or listed, sees expiry at once; events fire once", async () => {
    const base = server.url;
    const [one, lists] = await Promise.all([
      database.createMerchant("Expiry object reads"),
      database.createMerchant("Expiry object lists"),
    ]);
    const [forIntent, forOrder, listed] = await Promise.all([
      openCheckout(one.testKey, { expiresInSeconds: 1 }, base),
      openCheckout(one.testKey, { expiresInSeconds: 1 }, base),
      openCheckout(lists.testKey, { expiresInSeconds: 1 }, base),
    ]);
    await sleep(1100);

    expect((await call("GET", `/v1/payment_intents/${forIntent.paymentIntentId}`, { key: one.testKey, base })).body.status).toBe("expired");
    expect((await call("GET", `/v1/orders/${forOrder.orderId}`, { key: one.testKey, base })).body.status).toBe("canceled");
    const waiting = await call("GET", `/v1/payment_intents?status=requires_payment`, { key: lists.testKey, base });
    expect(waiting.body.data).toEqual([]);
    const canceled = await call("GET", "/v1/orders?status=canceled", { key: lists.testKey, base });
    expect(canceled.body.data.map((order: any) => order.id)).toEqual([listed.orderId]);

    await tick(base);
    expect(await eventTypesOf(one.testKey, forIntent.paymentIntentId)).toEqual(["payment_intent.expired"]);
    expect(await eventTypesOf(one.testKey, forOrder.orderId)).toEqual(["order.canceled"]);
    expect(await eventTypesOf(lists.testKey, listed.paymentIntentId)).toEqual(["payment_intent.expired"]);
  });
});
