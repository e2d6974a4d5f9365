// Prepared statements inside a Prisma transaction (lib/db.ts sqlIn) and the rows of lib/sql-model.ts: they run in
// the very transaction, roll back with it, refuse to run once it ended, and read and write rows exactly as Prisma does.
import { describe, expect, it } from "vitest";
import { getDb, sqlIn, statement, transaction, type Db } from "../../lib/db";
import { Prisma } from "../../lib/generated/prisma/client";
import { openCheckout } from "../../lib/checkouts/open-checkout";
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
});
