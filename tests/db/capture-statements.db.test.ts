// The capture's fused statements (docs/BENCHMARKS.md "Fewer round trips in the capture"): the checkout's lock with its
// PaymentIntent read once the lock is held (lockCheckoutForCharge, a VOLATILE function), and the order's and
// checkout's transitions inside the PaymentIntent's (plannedCapture). What they must keep: a charge a lock holder
// left pending is seen by the next capture however long it waited, a double capture charges once, and a follower's
// transition that finds its row moved is the 409 naming the status found.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { captureCheckout, type CaptureHooks } from "../../lib/checkouts/capture-checkout";
import type { CaptureCheckoutInput } from "../../lib/checkouts/schemas";
import { lockCheckoutForCharge } from "../../lib/checkouts/lock-checkout";
import { openCheckout, openCheckoutRows } from "../../lib/checkouts/open-checkout";
import { getDb, transaction, type Db } from "../../lib/db";
import { DomainError } from "../../lib/errors";
import { createId } from "../../lib/ids";
import { requireDatabaseUrl } from "../../lib/env";
import type { Scope } from "../../lib/scope";
import { railChargesFor } from "../helpers/payments";
import { createTestMerchant } from "../helpers/merchants";

async function connection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: requireDatabaseUrl() });
  await client.connect();
  return client;
}

async function openOne(name: string) {
  const { merchantId } = await createTestMerchant(name);
  const scope = { merchantId, livemode: false };
  const checkout = await transaction((tx) => openCheckout(tx, scope, { amount: 700, currency: "USD" }, { source: "api" }));
  return { scope, checkout };
}

describe("the capture's fused statements", () => {
  it("the lock's PaymentIntent read sees an attempt committed while it waited for the lock (then rolled back by its holder)", async () => {
    const { scope, checkout } = await openOne("lock for charge");
    const holder = await connection();
    const side = await connection();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE", [checkout.id]);
      // Ours starts now (its statement's snapshot is older than the attempt below) and waits for the holder.
      const locked = transaction((tx) => lockCheckoutForCharge(tx, scope, checkout.id));
      await waitForLockWaiter();
      // The holder's charge attempt, committed on its own connection before its rail call; then the holder dies.
      await side.query(
        "INSERT INTO payment_attempts (id, payment_intent_id, rail, charge_key, payment_method, status) VALUES ($1, $2, 'test', $1, 'pm_card_visa', 'pending')",
        [createId("paymentAttempt"), checkout.paymentIntentId],
      );
      await holder.query("ROLLBACK");
      const read = await locked;
      expect(read.pendingAttempt).toBe(true);
      expect(read.checkout).toEqual(await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.id } }));
      expect(read.pi).toEqual(await getDb().paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } }));
      expect(read.order).toEqual(await getDb().order.findUniqueOrThrow({ where: { id: checkout.orderId } }));
      expect(read.overdue).toBe(false);
    } finally {
      await holder.end();
      await side.end();
    }
    // Another merchant's checkout, or none: not found.
    const other = { merchantId: (await createTestMerchant("lock for charge, other")).merchantId, livemode: false };
    await expect(transaction((tx) => lockCheckoutForCharge(tx, other, checkout.id))).rejects.toThrow(/No such checkout/i);
    await expect(transaction((tx) => lockCheckoutForCharge(tx, scope, "co_missing"))).rejects.toThrow(/No such checkout/i);
  });

  it("the lock holds the PaymentIntent and the order too: the capture plans their transitions from the rows it read", async () => {
    const { scope, checkout } = await openOne("lock holds its rows");
    const other = await connection();
    try {
      await transaction(async (tx) => {
        await lockCheckoutForCharge(tx, scope, checkout.id);
        for (const [table, id] of [
          ["payment_intents", checkout.paymentIntentId],
          ["orders", checkout.orderId],
        ])
          await expect(other.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(
            /could not obtain lock/,
          );
      });
    } finally {
      await other.end();
    }
  });

  it("a checkout opened in the capture's own transaction: its rows as the lock would read them, captured without the lock", async () => {
    const { merchantId } = await createTestMerchant("opened in the same transaction");
    const scope = { merchantId, livemode: false };
    const order = await transaction(async (tx) => {
      const opened = await openCheckoutRows(tx, scope, { amount: 900, currency: "USD", metadata: { a: "b" } }, { source: "x402" }, true);
      // What the lock would have read, in the same transaction: the very rows, no attempt pending, not overdue.
      expect(await lockCheckoutForCharge(tx, scope, opened.checkout.id)).toEqual({
        checkout: opened.checkout,
        pi: opened.paymentIntent,
        order: await tx.order.findUniqueOrThrow({ where: { id: opened.checkout.orderId } }),
        pendingAttempt: false,
        overdue: false,
      });
      const hooks = { opened: { checkout: opened.checkout, pi: opened.paymentIntent } };
      return captureCheckout(tx, scope, opened.checkout.id, { paymentMethod: "pm_card_visa" }, hooks);
    });
    expect(order).toMatchObject({ status: "paid", amount: 900 });
    const stored = await getDb().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.status).toBe("paid");
    expect(await railChargesFor(stored.paymentIntentId)).toBe(1);
    expect((await getDb().checkout.findUniqueOrThrow({ where: { id: stored.checkoutId! } })).status).toBe("complete");
  });

  // Planned from the rows the lock holds, the transitions deferred: the caller going on with statements only (the API's
  // route), or reading the rows back through Prisma in the same transaction (the pay page, a shared payment token's
  // redemption), which must see the capture's writes (lib/db.ts runs them before a Prisma call).
  for (const readBack of [false, true]) {
    const mode = readBack ? " (read back through Prisma in the same transaction)" : "";
    const captureAndRead = async (tx: Db, scope: Scope, id: string, input: CaptureCheckoutInput, hooks: CaptureHooks = {}) => {
      const order = await captureCheckout(tx, scope, id, input, hooks);
      if (!readBack) return order;
      const [stored, checkout] = await Promise.all([
        tx.order.findUniqueOrThrow({ where: { id: order.id } }),
        tx.checkout.findUniqueOrThrow({ where: { id: order.checkoutId as string } }),
      ]);
      expect([stored.status, checkout.status]).toEqual(["paid", "complete"]);
      return order;
    };
    const hooks = {};
    it(`a double capture charges once: the order answered is the order as stored${mode}`, async () => {
      const { scope, checkout } = await openOne(`double capture${mode}`);
      const capture = () =>
        transaction((tx) => captureAndRead(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }, hooks)).then(
          (order) => ({ ok: true as const, order }),
          (err: unknown) => ({ ok: false as const, err }),
        );
      const results = await Promise.all([capture(), capture()]);
      const paid = results.filter((r) => r.ok);
      const refused = results.filter((r) => !r.ok);
      expect(paid).toHaveLength(1);
      expect(refused).toHaveLength(1);
      const err = (refused[0] as { err: unknown }).err;
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).message).toMatch(/complete/);
      expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);

      const order = await getDb().order.findUniqueOrThrow({ where: { id: checkout.orderId } });
      expect(order.status).toBe("paid");
      expect((paid[0] as { order: { status: string; updated_at?: number } }).order).toMatchObject({ id: order.id, status: "paid" });
      expect((await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe("complete");
      const entries = await getDb().ledgerEntry.count({ where: { paymentIntentId: checkout.paymentIntentId, kind: "capture" } });
      expect(entries).toBeGreaterThan(0);
      const events = await getDb().event.findMany({ where: { objectId: { in: [order.id, checkout.paymentIntentId] } } });
      const types = events.map((e) => e.type).filter((t) => t !== "payment_intent.settled");
      expect(types.sort()).toEqual(["order.paid", "payment_intent.captured"]);
      const orderPaid = events.find((e) => e.type === "order.paid");
      expect((orderPaid?.data as { object: { status: string; customer: unknown } }).object.status).toBe("paid");
    });

    it(`a capture that crashed after the rail charged is applied by the next one: charged once, order paid, checkout complete${mode}`, async () => {
      const { scope, checkout } = await openOne(`crashed capture${mode}`);
      const crash = () => {
        throw new Error("crashed after the rail charged");
      };
      await expect(
        transaction((tx) =>
          captureAndRead(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }, { ...hooks, afterRailCharge: crash }),
        ),
      ).rejects.toThrow("crashed after the rail charged");
      expect((await getDb().order.findUniqueOrThrow({ where: { id: checkout.orderId } })).status).toBe("pending");
      const order = await transaction((tx) => captureAndRead(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }, hooks));
      expect(order).toMatchObject({ id: checkout.orderId, status: "paid" });
      expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
      expect((await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe("complete");
      const events = await getDb().event.findMany({ where: { objectId: { in: [checkout.orderId, checkout.paymentIntentId] } } });
      expect(
        events
          .map((e) => e.type)
          .filter((t) => t !== "payment_intent.settled")
          .sort(),
      ).toEqual(["order.paid", "payment_intent.captured"]);
    });

    it(`an order found moved away is the 409 naming its status, and nothing of the capture stays${mode}`, async () => {
      const { scope, checkout } = await openOne(`order moved${mode}`);
      await getDb().order.update({ where: { id: checkout.orderId }, data: { status: "canceled" } });
      await expect(transaction((tx) => captureAndRead(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }, hooks))).rejects.toThrow(
        /order .* cannot move from 'canceled' to 'paid'/,
      );
      const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } });
      expect(pi.status).toBe("requires_payment");
      expect((await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe("open");
      expect(await getDb().event.count({ where: { objectId: { in: [checkout.orderId, pi.id] } } })).toBe(0);
    });
  }
});

/** Until a backend of this database waits for a row lock. */
async function waitForLockWaiter(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = await getDb().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (Number(row.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no statement waited for the lock");
}
