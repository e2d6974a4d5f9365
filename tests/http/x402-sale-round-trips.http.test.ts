// A test-mode x402 sale's database round trips (docs/BENCHMARKS.md, "Two round trips fewer per sale"), counted by a
// proxy in front of PostgreSQL (scripts/lib/pg-round-trips.ts), with payments signed by the real x402 client:
// - the authorization's lock, its claim and the sale's checkout (PaymentIntent, order, checkout) are one statement
//   (lib/x402/settle-payment.ts lockAndClaim); the checkout is inserted only when the claim is made, so a payment sent
//   again opens nothing;
// - the capture's transitions (PaymentIntent, order, checkout) are planned from those rows and run, each checked, with
//   the last statement (predictedTransition, lib/sql-model.ts): what the sale's events say of the PaymentIntent and
//   the order is what the database holds.
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRoundTrips, type RoundTripCounter } from "../../scripts/lib/pg-round-trips";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { getDb } from "../../lib/db";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

let counter: RoundTripCounter;
let server: ServerProcess;
let seller: TestMerchant;
let resourceId: string;
const signer = new x402Client().register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));

beforeAll(async () => {
  counter = await countRoundTrips(process.env.DATABASE_URL!);
  // No wake-on-commit: the webhook sender's statements would land among the sale's (the cron tick sends instead).
  [server, seller] = await Promise.all([
    startTestServer({ DATABASE_URL: counter.url, WEBHOOK_WAKE_ON_COMMIT: "0" }),
    createTestMerchant("x402 round trips"),
  ]);
  const created = await call("POST", "/v1/paid_resources", {
    key: seller.testKey,
    body: { name: "Counted", amount: 1, currency: "usd", content: { counted: true } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  resourceId = created.body.id;
});

afterAll(async () => {
  await server?.stop();
  await counter?.close();
});

/** A payment of the resource signed by the real client, as its PAYMENT-SIGNATURE header. */
async function signedPayment(): Promise<string> {
  const challenge = await fetch(`${server.url}/x402/r/${resourceId}`);
  expect(challenge.status).toBe(402);
  const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString("utf8"));
  return Buffer.from(JSON.stringify(await signer.createPaymentPayload(required))).toString("base64");
}

/** The round trips of one paid request, its writes after the answer (the kept answer) included: counted once they stop. */
async function paidRequest(payment: string) {
  const before = counter.count();
  const res = await fetch(`${server.url}/x402/r/${resourceId}`, { headers: { "PAYMENT-SIGNATURE": payment } });
  const body = await res.text();
  let last = -1;
  while (counter.count() !== last) {
    last = counter.count();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { status: res.status, body, trips: last - before };
}

const checkoutsOf = (merchantId: string) => getDb().checkout.count({ where: { merchantId } });

describe("a test-mode x402 sale's round trips", () => {
  it("the door's read, the lock with the claim and the checkout, the charge, the capture with the answer and COMMIT, the kept answer: 5", async () => {
    await paidRequest(await signedPayment()); // warm: the first use of each statement parses it
    const payment = await signedPayment();
    const paid = await paidRequest(payment);
    expect(paid.status, paid.body).toBe(200);
    expect(JSON.parse(paid.body)).toEqual({ counted: true });
    expect(paid.trips).toBe(5);
  });

  it("the capture planned from the opened rows: the events' PaymentIntent and order are the database's, the checkout complete", async () => {
    const paid = await paidRequest(await signedPayment());
    expect(paid.status, paid.body).toBe(200);
    const [latest] = await getDb().paymentIntent.findMany({
      where: { merchantId: seller.merchantId },
      orderBy: { createdAt: "desc" },
      take: 1,
    });
    const events = await getDb().event.findMany({ where: { objectId: { in: [latest.id, latest.orderId!] } } });
    const data = (type: string) => (events.find((e) => e.type === type)?.data as { object: Record<string, unknown> }).object;
    const pi = await call("GET", `/v1/payment_intents/${latest.id}`, { key: seller.testKey });
    const order = await call("GET", `/v1/orders/${latest.orderId}`, { key: seller.testKey });
    // Another test file's tick may have settled it since (test mode settles at once): only what settling moves may differ.
    const { status, settledAt, ...captured } = data("payment_intent.captured");
    expect([status, settledAt]).toEqual(["captured", null]);
    expect(pi.body).toEqual({ ...captured, status: pi.body.status, settledAt: pi.body.settledAt });
    expect(["captured", "settled"]).toContain(pi.body.status);
    expect(data("order.paid")).toEqual(order.body);
    expect(order.body.status).toBe("paid");
    expect((await getDb().checkout.findUniqueOrThrow({ where: { id: latest.checkoutId! } })).status).toBe("complete");
  });

  it("the same payment sent again: its first answer, and no checkout opened", async () => {
    const payment = await signedPayment();
    const first = await paidRequest(payment);
    expect(first.status, first.body).toBe(200);
    const opened = await checkoutsOf(seller.merchantId);
    const again = await paidRequest(payment);
    expect(again.status, again.body).toBe(200);
    expect(again.body).toBe(first.body);
    expect(await checkoutsOf(seller.merchantId)).toBe(opened);
  });
});
