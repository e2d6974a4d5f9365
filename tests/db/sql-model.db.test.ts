// Prepared statements inside a Prisma transaction (lib/db.ts sqlIn) and the rows of lib/sql-model.ts: they run in
// the very transaction, roll back with it, refuse to run once it ended, and read and write rows exactly as Prisma does.
import { describe, expect, it } from "vitest";
import { deferWrites, getDb, sqlIn, statement, transaction, type Db } from "../../lib/db";
import { Prisma } from "../../lib/generated/prisma/client";
import { openCheckout } from "../../lib/checkouts/open-checkout";
import { plannedCheckoutTransition, predictedCheckoutTransition } from "../../lib/checkouts/transitions";
import { plannedEvent } from "../../lib/events/emit-event";
import { predictedOrderTransition, transitionOrder } from "../../lib/orders/transitions";
import { columnOf, selectList } from "../../lib/sql-model";
import { createTestMerchant } from "../helpers/merchants";

const TXID = statement("test_txid", "SELECT pg_current_xact_id()::text AS xid");
const NAME = statement("test_merchant_name", "UPDATE merchants SET name = $2 WHERE id = $1");

describe("statements in a Prisma transaction", () => {
  it("run in the same transaction as the Prisma calls, roll back with it, and never after it ended", async () => {
    const { merchantId } = await createTestMerchant("sqlIn");
    let kept: Db | undefined;
    await transaction(async (tx) => {
      kept = tx;
      const [ours] = await sqlIn(tx).rows<{ xid: string }>(TXID, []);
      const [prismas] = await tx.$queryRaw<{ xid: string }[]>`SELECT pg_current_xact_id()::text AS xid`;
      expect(ours.xid).toBe(prismas.xid);
    });
    await expect(sqlIn(kept!).rows(TXID, [])).rejects.toThrow(/Transaction already closed/);

    await expect(
      transaction(async (tx) => {
        await sqlIn(tx).count(NAME, [merchantId, "renamed in a rolled-back transaction"]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const merchant = await getDb().merchant.findUniqueOrThrow({ where: { id: merchantId } });
    expect(merchant.name).toBe("sqlIn");

    // On the Prisma client itself: the pool, each statement its own transaction.
    await sqlIn(getDb()).count(NAME, [merchantId, "renamed on the pool"]);
    expect((await getDb().merchant.findUniqueOrThrow({ where: { id: merchantId } })).name).toBe("renamed on the pool");
  });

  it("every field of the models read by statements has its snake-case column, and rows read as Prisma reads them", async () => {
    const models = {
      payment_intents: Prisma.PaymentIntentScalarFieldEnum,
      orders: Prisma.OrderScalarFieldEnum,
      checkouts: Prisma.CheckoutScalarFieldEnum,
      payment_attempts: Prisma.PaymentAttemptScalarFieldEnum,
      paid_resources: Prisma.PaidResourceScalarFieldEnum,
      approval_requests: Prisma.ApprovalRequestScalarFieldEnum,
    };
    for (const [table, fields] of Object.entries(models)) {
      const columns = await getDb().$queryRawUnsafe<{ column_name: string }[]>(
        `SELECT column_name::text FROM information_schema.columns WHERE table_name = $1`,
        table,
      );
      const names = new Set(columns.map((c) => c.column_name));
      for (const field of Object.keys(fields)) expect(names, `${table}.${columnOf(field)}`).toContain(columnOf(field));
    }

    const { merchantId } = await createTestMerchant("sql-model rows");
    const scope = { merchantId, livemode: false };
    const opened = await transaction((tx) =>
      openCheckout(
        tx,
        scope,
        { amount: 1234, currency: "USD", items: [{ name: "A thing", quantity: 2, unitAmount: 617 }], metadata: { a: "b" } },
        { source: "api" },
      ),
    );
    const read = statement("test_checkout_row", `SELECT ${selectList(Prisma.CheckoutScalarFieldEnum)} FROM checkouts WHERE id = $1`);
    const [ours] = await sqlIn(getDb()).rows<unknown>(read, [opened.id]);
    expect(ours).toEqual(await getDb().checkout.findUniqueOrThrow({ where: { id: opened.id } }));
    const pi = await getDb().paymentIntent.findFirstOrThrow({ where: { checkoutId: opened.id } });
    expect(pi.status).toBe("requires_payment");
    expect(pi.createdAt).toBeInstanceOf(Date);
    const order = await getDb().order.findUniqueOrThrow({ where: { paymentIntentId: pi.id } });
    expect(order.items).toEqual([{ name: "A thing", quantity: 2, unitAmount: 617 }]);
  });

  it("fused writes: a transition with another's checked in one statement, deferred writes taken by the next statement or the commit", async () => {
    const { merchantId } = await createTestMerchant("fused writes");
    const scope = { merchantId, livemode: false };
    const open = () => transaction((tx) => openCheckout(tx, scope, { amount: 500, currency: "USD" }, { source: "api" }));
    const eventsOf = (objectId: string) => getDb().event.findMany({ where: { objectId }, orderBy: { createdAt: "asc" } });

    // The checkout's transition fused into the order's: both move, and the deferred events commit, in their order.
    const first = await open();
    const order = await transaction(async (tx) => {
      const paid = await transitionOrder(tx, first.orderId, "paid", {}, [plannedCheckoutTransition(first.id, "complete")]);
      await deferWrites(tx, [
        plannedEvent(scope, "order.paid", { id: paid.id, n: 1 }),
        plannedEvent(scope, "order.paid", { id: paid.id, n: 2 }),
      ]);
      return paid;
    });
    expect(order.status).toBe("paid");
    expect(order).not.toHaveProperty("moved_0");
    expect((await getDb().checkout.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("complete");
    // Both written, with the times they were planned at (the first's no later than the second's).
    const written = (await eventsOf(order.id)).map((e) => ({
      n: (e.data as { object: { n: number } }).object.n,
      at: e.createdAt.getTime(),
    }));
    expect(written.map((e) => e.n).sort()).toEqual([1, 2]);
    const at = (n: number) => written.find((e) => e.n === n)?.at ?? NaN;
    expect(at(1)).toBeLessThanOrEqual(at(2));

    // The fused transition that finds its row in another status: 409 naming it, and nothing of the statement stays.
    const second = await open();
    await getDb().checkout.update({ where: { id: second.id }, data: { status: "canceled" } });
    await expect(
      transaction(async (tx) => {
        await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: second.orderId })]);
        return transitionOrder(tx, second.orderId, "paid", {}, [plannedCheckoutTransition(second.id, "complete")]);
      }),
    ).rejects.toThrow(/checkout .* cannot move from 'canceled' to 'complete'/);
    expect((await getDb().order.findUniqueOrThrow({ where: { id: second.orderId } })).status).toBe("pending");
    expect(await eventsOf(second.orderId)).toEqual([]);

    // Deferred writes roll back with their transaction, and run at once outside one.
    await expect(
      transaction(async (tx) => {
        await sqlIn(tx).rows(TXID, []);
        await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_deferred" })]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await eventsOf("ord_deferred")).toEqual([]);
    await deferWrites(getDb(), [plannedEvent(scope, "order.paid", { id: "ord_at_once" })]);
    expect(await eventsOf("ord_at_once")).toHaveLength(1);
  });

  it("predicted transitions: the row predicted is the row written; a status that cannot move is 409 at once; a row moved meanwhile fails the commit", async () => {
    const { merchantId } = await createTestMerchant("predicted transitions");
    const scope = { merchantId, livemode: false };
    const opened = await transaction((tx) => openCheckout(tx, scope, { amount: 700, currency: "USD" }, { source: "api" }));
    const orderRow = () => getDb().order.findUniqueOrThrow({ where: { id: opened.orderId } });
    const eventsOf = (objectId: string) => getDb().event.findMany({ where: { objectId } });

    const predicted = await transaction(async (tx) => {
      const moved = predictedOrderTransition(await orderRow(), "paid", { customerId: null });
      await deferWrites(tx, [moved.write, plannedEvent(scope, "order.paid", { id: opened.orderId })]);
      return moved.row;
    });
    expect(await orderRow()).toEqual(predicted);

    const checkout = await getDb().checkout.findUniqueOrThrow({ where: { id: opened.id } });
    expect(() => predictedCheckoutTransition({ ...checkout, status: "expired" }, "complete")).toThrow(
      /checkout .* cannot move from 'expired' to 'complete'/,
    );
    // Planned from a row that another transaction moved since: nothing of the transaction commits.
    await expect(
      transaction(async (tx) => {
        await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_predicted_lost" })]);
        await deferWrites(tx, [predictedCheckoutTransition(checkout, "complete").write]);
        await getDb().checkout.update({ where: { id: opened.id }, data: { status: "canceled" } });
      }),
    ).rejects.toThrow(/checkout .* could not move to complete/);
    expect(await eventsOf("ord_predicted_lost")).toEqual([]);
  });

  const ORDER_STATUS = statement("test_order_status", "SELECT status FROM orders WHERE id = $1");
  it("deferred writes run before the transaction's next Prisma call: it reads them, and one that moved nothing fails that call and rolls all back", async () => {
    const { merchantId } = await createTestMerchant("deferred before Prisma");
    const scope = { merchantId, livemode: false };
    const opened = await transaction((tx) => openCheckout(tx, scope, { amount: 700, currency: "USD" }, { source: "api" }));
    const order = await getDb().order.findUniqueOrThrow({ where: { id: opened.orderId } });

    const seen = await transaction(async (tx) => {
      const paid = predictedOrderTransition(order, "paid", { customerId: null });
      await deferWrites(tx, [paid.write, plannedEvent(scope, "order.paid", { id: "ord_before_prisma" })]);
      // Two Prisma calls and a statement at once: all wait for the one run of the deferred writes.
      const [row, events, counted] = await Promise.all([
        tx.order.findUniqueOrThrow({ where: { id: order.id } }),
        tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM events WHERE object_id = 'ord_before_prisma'`,
        sqlIn(tx).rows<{ status: string }>(ORDER_STATUS, [order.id]),
      ]);
      return { status: row.status, events: Number(events[0].n), counted: counted[0].status };
    });
    expect(seen).toEqual({ status: "paid", events: 1, counted: "paid" });

    // Planned from the order as it was (pending), now paid: the Prisma call after it fails, and nothing commits.
    await expect(
      transaction(async (tx) => {
        await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_before_prisma_lost" })]);
        await deferWrites(tx, [predictedOrderTransition(order, "paid", { customerId: null }).write]);
        await tx.checkout.findUniqueOrThrow({ where: { id: opened.id } });
        throw new Error("the Prisma call should have failed");
      }),
    ).rejects.toThrow(/order .* could not move to paid/);
    // The caller catches that failure and goes on: the transaction fails all the same (its COMMIT would roll back).
    await expect(
      transaction(async (tx) => {
        await deferWrites(tx, [predictedOrderTransition(order, "paid", { customerId: null }).write]);
        await tx.checkout.findUniqueOrThrow({ where: { id: opened.id } }).catch(() => null);
        return "went on";
      }),
    ).rejects.toThrow(/order .* could not move to paid/);
    expect(await getDb().event.count({ where: { objectId: "ord_before_prisma_lost" } })).toBe(0);
  });
});
