// Issue 14 item 1, the service side: a reservation key reused by another request never looks like a new
// hold. POST /v1/meters/:id/reservations says whether THIS request created the hold (`created`, and 201
// vs 200); a reused key of a reservation that is already committed or released is refused (409
// reservation_already_used), even when the budget is used up; N concurrent copies with one new key get
// one `created: true`. The creating request's own retry (same API key and Idempotency-Key) is answered as
// it was the first time (201, created), while the hold is still held.
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { createCustomer } from "../helpers/payments";

const PRICE = 400_000; // 0.4 of a cent in base units

let m: TestMerchant;
beforeEach(async () => {
  m = await createTestMerchant("Reservation replays");
});

async function openPrepaid(budgetMinor: number) {
  const customer = await createCustomer(m.testKey, { amount: 1_000, currency: "usd" });
  const res = await call("POST", "/v1/meters", {
    key: m.testKey,
    body: { customerId: customer.id, currency: "usd", thresholdMinor: 100, prepaid: true, budgetMinor, paymentMethod: "pm_card_visa" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

const reserve = (meterId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call("POST", `/v1/meters/${meterId}/reservations`, { key: m.testKey, body, headers });
const finish = (meterId: string, rid: string, action: "commit" | "release") =>
  call("POST", `/v1/meters/${meterId}/reservations/${rid}/${action}`, { key: m.testKey, body: {} });
const meterOf = async (id: string) => (await call("GET", `/v1/meters/${id}`, { key: m.testKey })).body;

describe("reservations: a reused key is never a new hold", () => {
  it("a new hold says created: true (201); another request with its key gets created: false (200)", async () => {
    const meter = await openPrepaid(2);
    const first = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "K" }, { "Idempotency-Key": "req-1" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: "meter_reservation", status: "held", created: true });
    const other = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "K" }, { "Idempotency-Key": "req-2" });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ id: first.body.id, status: "held", created: false });
    const noHeader = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "K" });
    expect([noHeader.status, noHeader.body.created]).toEqual([200, false]);
    // The creating request's own retry (its answer was lost): answered as the first time.
    const retry = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "K" }, { "Idempotency-Key": "req-1" });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: PRICE });
  });

  it("a key of a committed reservation is refused (409 reservation_already_used), even with no budget left and from its own request", async () => {
    const meter = await openPrepaid(1); // room for exactly 2 of 400,000 (and 200,000 spare)
    const a = await reserve(meter.id, { quantity: 2, unitPriceMinor: PRICE, idempotencyKey: "paid-once" }, { "Idempotency-Key": "req-a" });
    expect(a.status).toBe(201);
    expect((await finish(meter.id, a.body.id, "commit")).status).toBe(200);
    for (const headers of [{}, { "Idempotency-Key": "req-other" }, { "Idempotency-Key": "req-a" }] as Record<string, string>[]) {
      const again = await reserve(meter.id, { quantity: 2, unitPriceMinor: PRICE, idempotencyKey: "paid-once" }, headers);
      expect(again.status, JSON.stringify(again.body)).toBe(409);
      expect(again.body.error).toMatchObject({
        code: "CONFLICT",
        details: { reason: "reservation_already_used", reservationId: a.body.id, status: "committed" },
      });
    }
    // The same through the header-only key (the SDK's own retries): refused once committed.
    const h = await reserve(meter.id, { quantity: 1, unitPriceMinor: 100_000 }, { "Idempotency-Key": "hdr-only" });
    expect([h.status, h.body.created]).toEqual([201, true]);
    expect((await finish(meter.id, h.body.id, "commit")).status).toBe(200);
    const hAgain = await reserve(meter.id, { quantity: 1, unitPriceMinor: 100_000 }, { "Idempotency-Key": "hdr-only" });
    expect(hAgain.status).toBe(409);
    expect(hAgain.body.error.details).toMatchObject({ reason: "reservation_already_used", status: "committed" });
    expect(await meterOf(meter.id)).toMatchObject({ usedBase: 2 * PRICE + 100_000, reservedBase: 0 });
  });

  it("a key of a released reservation is refused too (409), with its release reason", async () => {
    const meter = await openPrepaid(1);
    const a = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "failed-call" });
    expect((await finish(meter.id, a.body.id, "release")).status).toBe(200);
    const again = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "failed-call" });
    expect(again.status).toBe(409);
    expect(again.body.error.details).toMatchObject({
      reason: "reservation_already_used",
      reservationId: a.body.id,
      status: "released",
      releaseReason: "failed",
    });
    // Another quantity under the same key is still the 400 it was.
    expect((await reserve(meter.id, { quantity: 2, unitPriceMinor: PRICE, idempotencyKey: "failed-call" })).status).toBe(400);
    expect(await meterOf(meter.id)).toMatchObject({ usedBase: 0, reservedBase: 0 });
  });

  it("20 concurrent requests with one new key: exactly one created: true, one hold", async () => {
    const meter = await openPrepaid(5);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "one-call" }, { "Idempotency-Key": `copy-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201 && r.body.created === true)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200 && r.body.created === false)).toHaveLength(19);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: PRICE });
  });
});
