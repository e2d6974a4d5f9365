// What the paywall's hot path costs in database round trips, counted by a proxy in front of PostgreSQL
// (scripts/lib/pg-round-trips.ts, as npm run bench:paywall counts them) on a server of its own: verify,
// redemption, and the combined verify-and-redeem each cost TWO (the API-key statement with its
// rate-limit token, then the route's one statement), whatever the answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { openPaywallCheckout } from "../../lib/paywall/open-paywall-checkout";
import { countRoundTrips, type RoundTripCounter } from "../../scripts/lib/pg-round-trips";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let counter: RoundTripCounter;
let server: ServerProcess;
let seller: TestMerchant;

beforeAll(async () => {
  counter = await countRoundTrips(process.env.DATABASE_URL!);
  [server, seller] = await Promise.all([startTestServer({ DATABASE_URL: counter.url }), createTestMerchant("Round trips")]);
});

afterAll(async () => {
  await server?.stop();
  await counter?.close();
});

const search = { amount: 250, currency: "USD", sku: "tool:search" };
const terms = () => ({ merchantId: seller.merchantId, ...search });

async function paid(t = search): Promise<string> {
  const checkout = await transaction((tx) => openPaywallCheckout(tx, { merchantId: seller.merchantId, livemode: false }, t));
  const res = await capture(seller.testKey, checkout.id, "pm_card_visa", { base: server.url });
  expect(res.status).toBe(200);
  return checkout.paymentIntentId as string;
}

const post = (path: string, body: Record<string, unknown>) => call("POST", path, { key: seller.testKey, body, base: server.url });

/** Round trips the server made for `request`, which must answer `status`. */
async function tripsOf(request: () => Promise<{ status: number; body: unknown }>, status: number): Promise<number> {
  const before = counter.count();
  const res = await request();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return counter.count() - before;
}

describe("database round trips per paywall request", () => {
  it("verify, redemption, and the combined call: two each, for every answer", async () => {
    // Warm-up: the pool's connections and each named statement's first parse.
    for (let i = 0; i < 3; i++) {
      const pi = await paid();
      await post("/v1/paywall/verify", { ...terms(), paymentIntentId: pi });
      await post("/v1/paywall/redemptions", { paymentIntentId: pi });
      await post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: await paid() });
    }
    const wrongSku = await paid({ ...search, sku: "tool:other" });
    const measured: Record<string, number[]> = {};
    const measure = async (label: string, request: () => Promise<{ status: number; body: unknown }>, status: number) => {
      (measured[label] ??= []).push(await tripsOf(request, status));
    };
    for (let i = 0; i < 5; i++) {
      const [a, b] = [await paid(), await paid()];
      await measure("verify", () => post("/v1/paywall/verify", { ...terms(), paymentIntentId: a }), 200);
      await measure("redemption", () => post("/v1/paywall/redemptions", { paymentIntentId: a }), 201);
      await measure("redemption, already redeemed", () => post("/v1/paywall/redemptions", { paymentIntentId: a }), 200);
      await measure("combined, redeemed", () => post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: b }), 201);
      await measure("combined, already redeemed", () => post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: b }), 200);
      await measure("combined, reference_mismatch", () => post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: wrongSku }), 200);
      await measure("combined, not_found", () => post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: `pi_unknown${i}` }), 200);
    }
    for (const [label, trips] of Object.entries(measured)) expect(trips, label).toEqual([2, 2, 2, 2, 2]);
  });
});
