// GET /v1/meters/:id/usage_summary (issue 19 item 4, docs/meters.md "Usage in batches"): a meter's usage by
// UTC hour or day, answered from the per-hour rollup kept in the same statement as the usage (single
// records, batches with their stated timestamps, committed reservations), never by scanning records:
// retries and racing copies count once, a day is the sum of its hours, every bucket of the window is
// answered, and bad windows are 400.
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { ServiceClient } from "agent-payments-sdk";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { createCustomer } from "../helpers/payments";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const PRICE = 400_000;

let m: TestMerchant;
let customerId: string;
beforeEach(async () => {
  m = await createTestMerchant("Usage summary");
  customerId = (await createCustomer(m.testKey)).id;
});

async function openMeter(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/meters", {
    key: m.testKey,
    body: { customerId, currency: "usd", thresholdMinor: 100, prepaid: false, paymentMethod: "pm_card_visa", ...body },
  });
  if (res.status !== 201) throw new Error(`open meter: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const summary = (meterId: string, query: string, key = m.testKey) => call("GET", `/v1/meters/${meterId}/usage_summary${query}`, { key });
const batch = (records: unknown[]) => call("POST", "/v1/meters/usage_batches", { key: m.testKey, body: { records } });
const hourOf = (at: number) => Math.floor(at / HOUR) * HOUR;
const iso = (at: number) => new Date(at).toISOString();

describe("usage summary", () => {
  it("sums records by the hour they happened and by UTC day, every bucket answered, from the rollup alone", async () => {
    const meter = await openMeter();
    const now = Date.now();
    const h0 = hourOf(now);
    // Usage in three hours: two records 3 hours ago (stated timestamps), one 2 days ago, and single records now.
    const records = [
      { meterId: meter.id, quantity: 2, unitPriceMinor: PRICE, idempotencyKey: "a", timestamp: iso(h0 - 3 * HOUR + 60_000) },
      { meterId: meter.id, quantity: 3, unitPriceMinor: 7, idempotencyKey: "b", timestamp: iso(h0 - 3 * HOUR + 120_000) },
      { meterId: meter.id, quantity: 5, unitPriceMinor: 11, idempotencyKey: "c", timestamp: iso(h0 - 2 * DAY) },
    ];
    expect((await batch(records)).body.accepted).toBe(3);
    expect((await batch(records)).body.duplicates).toBe(3); // a retried batch adds nothing
    for (const key of ["s1", "s1", "s2"]) {
      const res = await call("POST", `/v1/meters/${meter.id}/usage`, {
        key: m.testKey,
        body: { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: key },
      });
      expect(res.status).toBeLessThan(300);
    }
    const nowHour = hourOf(Date.now()); // the single records' hour (the clock may have passed an hour)

    const byHour = await summary(meter.id, `?interval=hour&from=${iso(h0 - 5 * HOUR)}&to=${iso(nowHour + 1)}`);
    expect(byHour.status).toBe(200);
    expect(byHour.body).toMatchObject({
      object: "usage_summary",
      meterId: meter.id,
      interval: "hour",
      from: iso(h0 - 5 * HOUR),
      to: iso(nowHour + HOUR),
    });
    const hours = byHour.body.data as { start: string; quantity: number; amountBase: number }[];
    expect(hours.map((b) => b.start)).toEqual(
      Array.from({ length: (nowHour + HOUR - (h0 - 5 * HOUR)) / HOUR }, (_, i) => iso(h0 - 5 * HOUR + i * HOUR)),
    );
    const at = (start: number) => hours.find((b) => b.start === iso(start));
    expect(at(h0 - 3 * HOUR)).toEqual({ start: iso(h0 - 3 * HOUR), quantity: 5, amountBase: 2 * PRICE + 21 });
    expect(at(nowHour)).toEqual({ start: iso(nowHour), quantity: 2, amountBase: 2 * PRICE });
    expect(at(h0 - 4 * HOUR)).toEqual({ start: iso(h0 - 4 * HOUR), quantity: 0, amountBase: 0 });
    expect(hours.reduce((s, b) => s + b.amountBase, 0)).toBe(4 * PRICE + 21);

    // By day: each UTC day is the sum of its hours; the record of 2 days ago is there too.
    const byDay = await summary(meter.id, `?interval=day&from=${iso(now - 3 * DAY)}&to=${iso(now)}`);
    expect(byDay.status).toBe(200);
    const days = byDay.body.data as { start: string; quantity: number; amountBase: number }[];
    expect(days).toHaveLength(4);
    expect(days.every((d) => new Date(d.start).getUTCHours() === 0)).toBe(true);
    expect(days.reduce((s, d) => s + d.amountBase, 0)).toBe(
      (await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body.usedBase,
    );
    expect(days.find((d) => d.start === iso(Math.floor((h0 - 2 * DAY) / DAY) * DAY))?.quantity).toBeGreaterThanOrEqual(5);

    // The rollup holds one row per hour used, and the answer comes from it alone: with the records gone
    // (deleted behind the service's back), the summary is unchanged.
    expect(await getDb().meterUsageHourly.count({ where: { meterId: meter.id } })).toBe(
      new Set([h0 - 3 * HOUR, h0 - 2 * DAY, nowHour]).size,
    );
    await getDb().meterUsageRecord.deleteMany({ where: { meterId: meter.id } });
    expect((await summary(meter.id, `?interval=hour&from=${iso(h0 - 5 * HOUR)}&to=${iso(nowHour + 1)}`)).body.data).toEqual(hours);
  });

  it("20 concurrent copies of a batch and a prepaid meter's committed calls are counted once", async () => {
    const meter = await openMeter();
    const records = Array.from({ length: 100 }, (_, i) => ({
      meterId: meter.id,
      quantity: 1 + (i % 3),
      unitPriceMinor: PRICE + i,
      idempotencyKey: `c${i}`,
    }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => batch(records)));
    expect(answers.reduce((s, r) => s + r.body.accepted, 0)).toBe(100);
    const total = records.reduce((s, r) => s + r.quantity * r.unitPriceMinor, 0);
    const today = await summary(meter.id, "?interval=day&from=" + iso(Date.now() - DAY));
    expect(today.body.data.reduce((s: number, d: { amountBase: number }) => s + d.amountBase, 0)).toBe(total);
    expect(today.body.data.reduce((s: number, d: { quantity: number }) => s + d.quantity, 0)).toBe(
      records.reduce((s, r) => s + r.quantity, 0),
    );

    const prepaid = await openMeter({ prepaid: true, budgetMinor: 100 });
    for (const [i, commit] of [true, false, true].entries()) {
      const held = await call("POST", `/v1/meters/${prepaid.id}/reservations`, {
        key: m.testKey,
        body: { quantity: 2, unitPriceMinor: 1_000_000 },
      });
      const done = await call("POST", `/v1/meters/${prepaid.id}/reservations/${held.body.id}/${commit ? "commit" : "release"}`, {
        key: m.testKey,
        body: {},
      });
      expect(done.status, String(i)).toBe(200);
      // Committing the same reservation again answers it again and counts nothing more.
      if (commit)
        expect(
          (await call("POST", `/v1/meters/${prepaid.id}/reservations/${held.body.id}/commit`, { key: m.testKey, body: {} })).status,
        ).toBe(200);
    }
    const used = await summary(prepaid.id, "");
    expect(used.status).toBe(200);
    expect(used.body.data).toHaveLength(24); // default: this hour and the 23 before
    expect(used.body.data.reduce((s: number, d: { amountBase: number }) => s + d.amountBase, 0)).toBe(4_000_000);
    expect(used.body.data.at(-1).start).toBe(iso(hourOf(Date.now())));

    // The SDK reads the same summary.
    const client = new ServiceClient({ baseUrl: baseUrl(), apiKey: m.testKey, maxRetries: 0 });
    const viaSdk = await client.meters.usageSummary(prepaid.id);
    expect(viaSdk.data).toEqual(used.body.data);
    expect((await client.meters.usageSummary(meter.id, { interval: "day" })).data).toHaveLength(30);
  });

  it("refuses bad intervals and windows (400) and other merchants' meters (404)", async () => {
    const meter = await openMeter();
    const now = Date.now();
    const cases: [string, string][] = [
      ["?interval=week", "interval"],
      ["?interval=", "interval"],
      ["?from=yesterday", "from"],
      ["?to=2026-11-25", "to"],
      [`?from=${iso(now)}&to=${iso(now - HOUR)}`, "from"],
      [`?from=${iso(now)}&to=${iso(now)}`, "from"],
      [`?interval=hour&from=${iso(now - 32 * DAY)}&to=${iso(now)}`, "from"],
      [`?interval=day&from=${iso(now - 400 * DAY)}&to=${iso(now)}`, "from"],
      ["?limit=10", ""],
    ];
    for (const [query, path] of cases) {
      const res = await summary(meter.id, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe("VALIDATION_ERROR");
      if (path)
        expect(
          res.body.error.details.fields.map((f: { path: string }) => f.path),
          query,
        ).toContain(path);
    }
    // The largest windows are fine: 31 days by hour, 366 by day.
    expect((await summary(meter.id, `?interval=hour&from=${iso(hourOf(now) - 31 * DAY + HOUR)}&to=${iso(now)}`)).body.data).toHaveLength(
      744,
    );
    expect((await summary(meter.id, `?interval=day&from=${iso(now - 365 * DAY)}&to=${iso(now)}`)).status).toBe(200);

    const other = await createTestMerchant("Someone else");
    expect((await summary(meter.id, "", other.testKey)).status).toBe(404);
    expect((await summary(meter.id, "", m.liveKey)).status).toBe(404);
    expect((await summary("mtr_doesnotexist000000000000", "")).status).toBe(404);
    expect((await call("GET", `/v1/meters/${meter.id}/usage_summary`)).status).toBe(401);
  });
});
