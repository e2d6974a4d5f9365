// pgTransaction (lib/db.ts): a plain pg transaction with transaction()'s guarantees, for work made of statements only
// (the API capture). Its statements and deferred writes commit together, a throw rolls all of it back, a Prisma call
// on it throws, nothing runs on it once it ended, and a connection whose ROLLBACK failed is never reused. BEGIN rides
// with its first statement and COMMIT with its last (the deferred writes, the closing write): round trips counted.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { captureCheckout } from "../../lib/checkouts/capture-checkout";
import { openCheckout } from "../../lib/checkouts/open-checkout";
import {
  closeWith,
  deferWrites,
  getDb,
  pgTransaction,
  sql,
  sqlIn,
  statement,
  transaction,
  TRANSACTION_TIMEOUT_MS,
  type Db,
} from "../../lib/db";
import { requireDatabaseUrl } from "../../lib/env";
import { plannedEvent } from "../../lib/events/emit-event";
import { createTestMerchant } from "../helpers/merchants";

const TXID = statement("test_txid", "SELECT pg_current_xact_id()::text AS xid");
const NAME = statement("test_merchant_name", "UPDATE merchants SET name = $2 WHERE id = $1");
const BACKEND = statement("test_backend_pid", "SELECT pg_backend_pid() AS pid");
const TERMINATE = statement("test_terminate_backend", "SELECT pg_terminate_backend($1)");

const nameOf = async (merchantId: string) => (await getDb().merchant.findUniqueOrThrow({ where: { id: merchantId } })).name;
const eventsOf = (objectId: string) => getDb().event.findMany({ where: { objectId } });

describe("pgTransaction", () => {
  it("commits its statements and its deferred writes together, in one transaction, and nothing runs on it afterwards", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction");
    const scope = { merchantId, livemode: false };
    let kept: Db | undefined;
    const xids = await pgTransaction(async (tx) => {
      kept = tx;
      const [first] = await sqlIn(tx).rows<{ xid: string }>(TXID, []);
      await sqlIn(tx).count(NAME, [merchantId, "renamed"]);
      await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_taken" })]); // taken by the next statement
      const [second] = await sqlIn(tx).rows<{ xid: string }>(TXID, []);
      await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_flushed" })]); // flushed before COMMIT
      return [first.xid, second.xid];
    });
    expect(xids[0]).toBe(xids[1]);
    expect(await nameOf(merchantId)).toBe("renamed");
    expect(await eventsOf("ord_pg_taken")).toHaveLength(1);
    expect(await eventsOf("ord_pg_flushed")).toHaveLength(1);
    await expect(sqlIn(kept!).rows(TXID, [])).rejects.toThrow(/Transaction already closed/);
  });

  it("rolls back on any throw, deferred writes included, and refuses a Prisma call", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction rollback");
    const scope = { merchantId, livemode: false };
    await expect(
      pgTransaction(async (tx) => {
        await sqlIn(tx).count(NAME, [merchantId, "rolled back"]);
        await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_rolled_back" })]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await nameOf(merchantId)).toBe("pgTransaction rollback");
    expect(await eventsOf("ord_pg_rolled_back")).toEqual([]);

    await expect(
      pgTransaction(async (tx) => {
        await sqlIn(tx).count(NAME, [merchantId, "rolled back"]);
        return tx.merchant.findUnique({ where: { id: merchantId } });
      }),
    ).rejects.toThrow(/tx\.merchant: a pgTransaction .* runs statements only/);
    expect(await nameOf(merchantId)).toBe("pgTransaction rollback");
  });

  it("work that swallowed a failed statement and returned does not pass for committed: COMMIT answered ROLLBACK", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction aborted");
    const FAILS = statement("test_fails", "SELECT 1 / 0");
    await expect(
      pgTransaction(async (tx) => {
        await sqlIn(tx).count(NAME, [merchantId, "never committed"]);
        await sqlIn(tx)
          .rows(FAILS, [])
          .catch(() => undefined);
        return "done";
      }),
    ).rejects.toThrow(/aborted/);
    expect(await nameOf(merchantId)).toBe("pgTransaction aborted");
  });

  it("a connection whose ROLLBACK failed is closed, not given to the next transaction", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction lost connection");
    let lost = 0;
    await expect(
      pgTransaction(async (tx) => {
        const [{ pid }] = await sqlIn(tx).rows<{ pid: number }>(BACKEND, []);
        lost = pid;
        await sql().rows(TERMINATE, [pid]);
        throw new Error("after the connection was lost");
      }),
    ).rejects.toThrow("after the connection was lost");
    // The pool hands out its most recently released connection first: had the dead one gone back, this would fail.
    const pids = await Promise.all(
      [1, 2, 3].map(() => pgTransaction(async (tx) => (await sqlIn(tx).rows<{ pid: number }>(BACKEND, []))[0].pid)),
    );
    expect(pids).not.toContain(lost);
    await pgTransaction((tx) => sqlIn(tx).count(NAME, [merchantId, "after"]));
    expect(await nameOf(merchantId)).toBe("after");
  });

  it("BEGIN rides with the first statement once prepared on the connection: one round trip fewer, the same transaction", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction begin");
    const counter = countTrips();
    try {
      const runs: { trips: number; xids: string[] }[] = [];
      for (let i = 0; i < 3; i++) {
        const before = counter.trips;
        const xids = await pgTransaction(async (tx) => {
          const [first] = await sqlIn(tx).rows<{ xid: string }>(TXID, []);
          await sqlIn(tx).count(NAME, [merchantId, `run ${i}`]);
          const [second] = await sqlIn(tx).rows<{ xid: string }>(TXID, []);
          return [first.xid, second.xid];
        });
        runs.push({ trips: counter.trips - before, xids });
      }
      // The pool hands out its most recently released connection: BEGIN is prepared on it after the first run.
      expect(runs.slice(1).map((r) => r.trips)).toEqual([4, 4]); // BEGIN with the first statement, two more, COMMIT
      for (const { xids } of runs) expect(xids[0]).toBe(xids[1]); // the first statement ran inside the transaction
      expect(await nameOf(merchantId)).toBe("run 2");

      // A first statement that fails: nothing of the transaction stays, and the connection serves the next one.
      const FAILS = statement("test_fails_first", "SELECT 1 / 0");
      await expect(pgTransaction((tx) => sqlIn(tx).rows(FAILS, []))).rejects.toThrow(/division by zero/);
      await expect(
        pgTransaction(async (tx) => {
          await sqlIn(tx).count(NAME, [merchantId, "rolled back"]);
          await sqlIn(tx).rows(FAILS, []);
        }),
      ).rejects.toThrow(/division by zero/);
      expect(await nameOf(merchantId)).toBe("run 2");
      const after = await pgTransaction(async (tx) => (await sqlIn(tx).rows<{ xid: string }>(TXID, []))[0].xid);
      expect(after).toMatch(/^\d+$/);
      // Statements sent at once: none goes out before the one carrying BEGIN settled. This one fails before anything is
      // written (pg refuses a name already prepared on the connection with another text), so its BEGIN never ran: the
      // next one must not run at all (it would commit on its own), and COMMIT becomes a rollback.
      const CLASHING = { name: TXID.name, text: "SELECT 2 AS xid" };
      await expect(
        pgTransaction(async (tx) => {
          const results = await Promise.allSettled([sqlIn(tx).rows(CLASHING, []), sqlIn(tx).count(NAME, [merchantId, "outside"])]);
          expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
          return "swallowed";
        }),
      ).rejects.toThrow(/aborted/);
      expect(await nameOf(merchantId)).toBe("run 2");
      // Work that ran no statement sends neither BEGIN nor COMMIT.
      const before = counter.trips;
      expect(await pgTransaction(async () => "nothing")).toBe("nothing");
      expect(counter.trips - before).toBe(0);
    } finally {
      counter.stop();
    }
  });

  it("COMMIT rides with the last statement (the deferred writes and the closing write) once prepared: one round trip for both", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction commit");
    const scope = { merchantId, livemode: false };
    const RENAME = statement("test_merchant_rename_returning", "UPDATE merchants SET name = $2 WHERE id = $1 RETURNING 1");
    const counter = countTrips();
    try {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const before = counter.trips;
        await pgTransaction(async (tx) => {
          await sqlIn(tx).rows(TXID, []);
          await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: `ord_pg_commit_${i}` })]);
          await closeWith(tx, { statement: RENAME, values: [merchantId, `commit ${i}`] }, "the merchant was not renamed");
        });
        runs.push(counter.trips - before);
      }
      // After the first (which prepares COMMIT): BEGIN with the first statement, then the writes with COMMIT.
      expect(runs.slice(1)).toEqual([2, 2]);
      expect(await nameOf(merchantId)).toBe("commit 2");
      for (const i of [0, 1, 2]) expect(await eventsOf(`ord_pg_commit_${i}`)).toHaveLength(1);

      // Work of deferred writes only: BEGIN, the writes and COMMIT in one round trip.
      let before = counter.trips;
      await pgTransaction((tx) => deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_commit_alone" })]));
      expect(counter.trips - before).toBe(1);
      expect(await eventsOf("ord_pg_commit_alone")).toHaveLength(1);

      // A closing write that changes nothing: its error, and nothing of the transaction stays.
      await expect(
        pgTransaction(async (tx) => {
          await sqlIn(tx).count(NAME, [merchantId, "never committed"]);
          await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_commit_lost" })]);
          await closeWith(tx, { statement: RENAME, values: ["mer_nobody", "nobody"] }, "the merchant was not renamed");
        }),
      ).rejects.toThrow("the merchant was not renamed");
      expect(await nameOf(merchantId)).toBe("commit 2");
      expect(await eventsOf("ord_pg_commit_lost")).toEqual([]);

      // A last statement that fails (a deferred write breaking a constraint): COMMIT is skipped, the transaction rolled
      // back, and the connection serves the next transaction, COMMIT riding again.
      const DUPLICATE = statement(
        "test_duplicate_merchant",
        "INSERT INTO merchants (id, name) SELECT id, name FROM merchants WHERE id = $1",
      );
      await expect(
        pgTransaction(async (tx) => {
          await sqlIn(tx).count(NAME, [merchantId, "never committed"]);
          await deferWrites(tx, [{ statement: DUPLICATE, values: [merchantId] }]);
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await nameOf(merchantId)).toBe("commit 2");
      before = counter.trips;
      await pgTransaction(async (tx) => {
        await sqlIn(tx).count(NAME, [merchantId, "after the failure"]);
        await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_commit_after" })]);
      });
      expect(counter.trips - before).toBe(2);
      expect(await nameOf(merchantId)).toBe("after the failure");
      expect(await eventsOf("ord_pg_commit_after")).toHaveLength(1);

      // Without a pgTransaction (Prisma's transaction, the pool), the closing write runs with the same check.
      await expect(
        transaction((tx) => closeWith(tx, { statement: RENAME, values: ["mer_nobody", "nobody"] }, "not renamed in transaction()")),
      ).rejects.toThrow("not renamed in transaction()");
      await expect(closeWith(getDb(), { statement: RENAME, values: ["mer_nobody", "nobody"] }, "not renamed on the pool")).rejects.toThrow(
        "not renamed on the pool",
      );
    } finally {
      counter.stop();
    }
  });

  it("the last statement, COMMIT riding with it, runs under the transaction's time-out: waiting on a lock past it fails, nothing commits", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction deadline");
    await pgTransaction((tx) => sqlIn(tx).rows(TXID, [])); // the pool's next connection has BEGIN, COMMIT and the deadline prepared
    const blocker = new pg.Client({ connectionString: requireDatabaseUrl() });
    await blocker.connect();
    await blocker.query("BEGIN");
    await blocker.query("SELECT 1 FROM merchants WHERE id = $1 FOR UPDATE", [merchantId]);
    const started = Date.now();
    try {
      await expect(
        pgTransaction(async (tx) => {
          await sqlIn(tx).rows(TXID, []);
          await deferWrites(tx, [{ statement: NAME, values: [merchantId, "after the time-out"] }]); // waits for the blocker
        }),
      ).rejects.toThrow(/statement timeout/);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThan(TRANSACTION_TIMEOUT_MS - 1_000);
      expect(waited).toBeLessThan(TRANSACTION_TIMEOUT_MS + 5_000);
    } finally {
      await blocker.query("ROLLBACK");
      await blocker.end();
    }
    expect(await nameOf(merchantId)).toBe("pgTransaction deadline");
    // The setting ended with the transaction: the connection's next one runs as usual.
    await pgTransaction((tx) => deferWrites(tx, [{ statement: NAME, values: [merchantId, "next"] }]));
    expect(await nameOf(merchantId)).toBe("next");
  }, 30_000);

  it("deferred writes that must change a row are checked where they run: the last statement, a later one, or at once", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction checked writes");
    const scope = { merchantId, livemode: false };
    const RENAME = statement("test_merchant_rename_checked", "UPDATE merchants SET name = $2 WHERE id = $1 RETURNING 1");
    const rename = (id: string, name: string, mustChange: string) => ({ statement: RENAME, values: [id, name], mustChange });

    // Deferred to the last statement: one that changes nothing fails it with its message (any of them: both named), and nothing commits.
    await expect(
      pgTransaction(async (tx) => {
        await sqlIn(tx).count(NAME, [merchantId, "never committed"]);
        await deferWrites(tx, [rename(merchantId, "renamed", "the merchant was not renamed")]);
        await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_checked_lost" })]);
        await deferWrites(tx, [rename("mer_nobody", "nobody", "nobody was renamed")]);
      }),
    ).rejects.toThrow("the merchant was not renamed; or nobody was renamed");
    expect(await nameOf(merchantId)).toBe("pgTransaction checked writes");
    expect(await eventsOf("ord_pg_checked_lost")).toEqual([]);

    // Followed by another statement: run and checked before it, so that it sees them; the rest rides with COMMIT.
    const seen = await pgTransaction(async (tx) => {
      await deferWrites(tx, [rename(merchantId, "renamed", "the merchant was not renamed")]);
      await deferWrites(tx, [plannedEvent(scope, "order.paid", { id: "ord_pg_checked_kept" })]);
      const NAME_OF = statement("test_merchant_name_of", "SELECT name FROM merchants WHERE id = $1");
      const [row] = await sqlIn(tx).rows<{ name: string }>(NAME_OF, [merchantId]);
      await closeWith(tx, { statement: RENAME, values: [merchantId, "closed"] }, "not closed");
      return row.name;
    });
    expect(seen).toBe("renamed");
    expect(await nameOf(merchantId)).toBe("closed");
    expect(await eventsOf("ord_pg_checked_kept")).toHaveLength(1);
    await expect(
      pgTransaction(async (tx) => {
        await deferWrites(tx, [rename("mer_nobody", "nobody", "nobody was renamed")]);
        await sqlIn(tx).rows(TXID, []);
        throw new Error("not reached: the statement before this one failed");
      }),
    ).rejects.toThrow("nobody was renamed");

    // In Prisma's transaction (before its commit) and on the pool (at once): the same check.
    await expect(transaction((tx) => deferWrites(tx, [rename("mer_nobody", "nobody", "not in transaction()")]))).rejects.toThrow(
      "not in transaction()",
    );
    await expect(deferWrites(getDb(), [rename("mer_nobody", "nobody", "not on the pool")])).rejects.toThrow("not on the pool");
    await deferWrites(getDb(), [rename(merchantId, "on the pool", "not renamed on the pool")]);
    expect(await nameOf(merchantId)).toBe("on the pool");
  });

  it("runs the API capture of an open checkout: order paid, checkout complete, posting and events committed", async () => {
    const { merchantId } = await createTestMerchant("pgTransaction capture");
    const scope = { merchantId, livemode: false };
    const checkout = await transaction((tx) => openCheckout(tx, scope, { amount: 900, currency: "USD" }, { source: "api" }));
    const order = await pgTransaction((tx) => captureCheckout(tx, scope, checkout.id, { paymentMethod: "pm_card_visa" }));
    expect(order.status).toBe("paid");
    expect((await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe("complete");
    const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } });
    expect(pi.status).toBe("captured");
    const legs = await getDb().ledgerEntry.findMany({ where: { paymentIntentId: pi.id } });
    expect(legs.map((l) => l.amount).sort((a, b) => a - b)).toEqual([-900, 900]);
    const types = (await getDb().event.findMany({ where: { objectId: { in: [pi.id, order.id] } } })).map((e) => e.type);
    expect(types.sort()).toEqual(["order.paid", "payment_intent.captured"]);
  });
});

/** Round trips written by this process: each Sync ends one of the extended protocol, each simple query is one. */
function countTrips() {
  const connection = pg.Connection.prototype as unknown as Record<"sync" | "query", (...args: unknown[]) => void>;
  const [sync, query] = [connection.sync, connection.query];
  const counter = {
    trips: 0,
    stop: () => Object.assign(connection, { sync, query }),
  };
  connection.sync = function (...args) {
    counter.trips++;
    return sync.apply(this, args);
  };
  connection.query = function (...args) {
    counter.trips++;
    return query.apply(this, args);
  };
  return counter;
}
