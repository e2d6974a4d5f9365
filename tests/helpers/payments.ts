// Helpers for the payments tests: open/capture checkouts, run the tick, read events and the test rail.
import { expect } from "vitest";
import { getDb } from "../../lib/db";
import { call, type ApiResponse } from "./http";
import { TEST_CRON_SECRET } from "./server";

export async function openCheckout(key: string, body: Record<string, unknown> = {}, base?: string, headers?: Record<string, string>) {
  const res = await call("POST", "/v1/checkouts", { key, base, headers, body: { amount: 1000, currency: "usd", ...body } });
  if (res.status !== 201) throw new Error(`open checkout: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function capture(
  key: string,
  checkoutId: string,
  paymentMethod = "pm_card_visa",
  extra: { billingCountry?: string; base?: string; headers?: Record<string, string> } = {},
) {
  const { base, headers, ...body } = extra;
  return call("POST", `/v1/checkouts/${checkoutId}/capture`, { key, base, headers, body: { paymentMethod, ...body } });
}

/** Opens and captures a checkout; returns the paid order. */
export async function paidOrder(key: string, amount = 1000, paymentMethod = "pm_card_visa") {
  const checkout = await openCheckout(key, { amount });
  const res = await capture(key, checkout.id, paymentMethod);
  if (res.status !== 200) throw new Error(`capture: ${res.status} ${JSON.stringify(res.body)}`);
  return { checkout, order: res.body };
}

export async function tick(base?: string): Promise<ApiResponse> {
  const res = await call("GET", "/api/cron/tick", { base, headers: { Authorization: `Bearer ${TEST_CRON_SECRET}` } });
  if (res.status !== 200) throw new Error(`tick: ${res.status}`);
  return res;
}

/** Every event of the merchant (all pages), oldest first. */
export async function allEvents(key: string, base?: string): Promise<any[]> {
  const events: any[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const res = await call("GET", `/v1/events?limit=100${startingAfter ? `&startingAfter=${startingAfter}` : ""}`, { key, base });
    if (res.status !== 200) throw new Error(`events: ${res.status}`);
    events.push(...res.body.data);
    if (!res.body.hasMore) break;
    startingAfter = res.body.data.at(-1).id;
  }
  return events.reverse();
}

/** The event types about one object (by data.object.id), sorted. */
export async function eventTypesFor(key: string, objectId: string): Promise<string[]> {
  return (await allEvents(key))
    .filter((event) => event.data.object.id === objectId)
    .map((event) => event.type)
    .sort();
}

/**
 * A just-paid PaymentIntent's status: captured, or already settled (test mode settles at once, and any test
 * file's tick settles every due PaymentIntent of the shared test database).
 */
export const CAPTURED_OR_SETTLED = expect.stringMatching(/^(captured|settled)$/);

/** eventTypesFor without payment_intent.settled, which another file's tick may add at any moment. */
export async function paymentEventTypesFor(key: string, objectId: string): Promise<string[]> {
  return (await eventTypesFor(key, objectId)).filter((type) => type !== "payment_intent.settled");
}

/** Successful charges the test rail holds for a PaymentIntent (through its charge attempts). */
export async function railChargesFor(paymentIntentId: string): Promise<number> {
  const rows = await getDb().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM test_rail_charges c JOIN payment_attempts a ON a.charge_key = c.charge_key
     WHERE a.payment_intent_id = ${paymentIntentId} AND c.status = 'succeeded'`;
  return Number(rows[0].n);
}

/**
 * Whether a PaymentIntent's stored receipt was written by the very transaction that posted its capture to the ledger
 * (the paid door signs it in the sale: lib/receipts/receipt-for.ts signReceiptInSale), not by one after it.
 */
export async function receiptCommittedWithCapture(paymentIntentId: string): Promise<boolean> {
  const rows = await getDb().$queryRaw<{ same: boolean }[]>`
    SELECT r.xmin::text = (SELECT e.xmin::text FROM ledger_entries e
                            WHERE e.payment_intent_id = r.payment_intent_id AND e.kind = 'capture' LIMIT 1) AS same
      FROM receipts r WHERE r.payment_intent_id = ${paymentIntentId}`;
  return rows[0]?.same === true;
}

export async function createCustomer(key: string, fund?: { amount: number; currency: string }, base?: string) {
  const res = await call("POST", "/v1/customers", { key, base, body: { name: "Payer" } });
  if (fund) {
    const funded = await call("POST", `/v1/customers/${res.body.id}/fund`, { key, base, body: fund });
    if (funded.status !== 200) throw new Error(`fund: ${funded.status} ${JSON.stringify(funded.body)}`);
  }
  return res.body;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
