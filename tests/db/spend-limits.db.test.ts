// The reusable spend counter (lib/spend-limits) on real Postgres: concurrent reservations in separate transactions
// never pass the limit, a rolled-back transaction releases its reservation, windows and currencies count apart,
// and maxUses caps the number of charges.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb, transaction } from "../../lib/db";
import { periodStartOf, readSpend, releaseSpend, reserveSpend } from "../../lib/spend-limits";

const key = () => `test:${randomUUID()}`;

describe("reserveSpend", () => {
  it("lets 40 concurrent transactions spend at most the limit, exactly filling it", async () => {
    const counterKey = key();
    const periodStart = periodStartOf("day");
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        transaction((tx) => reserveSpend(tx, { counterKey, periodStart, currency: "USD", amount: 300, limit: 3000 })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "limit_exceeded")).toBe(true);
    expect(await readSpend(getDb(), { counterKey, periodStart, currency: "USD" })).toEqual({ spent: 3000, uses: 10 });
  });

  it("releases the reservation of a transaction that rolls back", async () => {
    const counterKey = key();
    const r = { counterKey, periodStart: periodStartOf("none"), currency: "EUR", amount: 700, limit: 1000 };
    await expect(
      transaction(async (tx) => {
        expect((await reserveSpend(tx, r)).ok).toBe(true);
        throw new Error("capture failed");
      }),
    ).rejects.toThrow("capture failed");
    expect(await readSpend(getDb(), r)).toEqual({ spent: 0, uses: 0 });
    expect(await transaction((tx) => reserveSpend(tx, r))).toMatchObject({ ok: true, spent: 700 });
    expect(await transaction((tx) => reserveSpend(tx, r))).toMatchObject({ ok: false, reason: "limit_exceeded", spent: 700, limit: 1000 });
    await transaction((tx) => releaseSpend(tx, r));
    expect(await readSpend(getDb(), r)).toEqual({ spent: 0, uses: 0 });
  });

  it("counts each window and currency apart, and caps the number of charges with maxUses", async () => {
    const counterKey = key();
    const jan = periodStartOf("month", new Date("2026-01-15T10:00:00Z"));
    const feb = periodStartOf("month", new Date("2026-02-03T10:00:00Z"));
    expect(jan.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(periodStartOf("week", new Date("2026-01-15T10:00:00Z")).toISOString()).toBe("2026-01-12T00:00:00.000Z");
    const base = { counterKey, currency: "USD", amount: 100, limit: 100 };
    expect((await transaction((tx) => reserveSpend(tx, { ...base, periodStart: jan }))).ok).toBe(true);
    expect((await transaction((tx) => reserveSpend(tx, { ...base, periodStart: jan }))).ok).toBe(false);
    expect((await transaction((tx) => reserveSpend(tx, { ...base, periodStart: feb }))).ok).toBe(true);
    expect((await transaction((tx) => reserveSpend(tx, { ...base, periodStart: jan, currency: "EUR" }))).ok).toBe(true);
    const uses = { counterKey: key(), periodStart: jan, currency: "USD", amount: 1, limit: 1000, maxUses: 2 };
    expect((await transaction((tx) => reserveSpend(tx, uses))).ok).toBe(true);
    expect((await transaction((tx) => reserveSpend(tx, uses))).ok).toBe(true);
    expect(await transaction((tx) => reserveSpend(tx, uses))).toMatchObject({ ok: false, reason: "uses_exceeded" });
  });
});
