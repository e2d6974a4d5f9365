// Small pg pools apart from the Prisma pool, for writes that must commit on their own, outside the
// request's transaction: the test rail's books (an external system) and charge-attempt records (written
// before calling a rail, so that a crash after the charge leaves a trace), and the live x402 facilitator
// account's nonce lock, held while one transaction is sent. Separate pools also mean a
// request that holds a transaction connection never waits on its own pool for these.
import type pg from "pg";
import { databasePool } from "./db";
import { env } from "./env";
import { globalSingleton } from "./global-singleton";

/**
 * The test rail's books commit without waiting for their WAL to reach the disk (synchronous_commit off): nothing outside
 * this database depends on them, and a later commit of the database that does (the request's) flushes every earlier
 * WAL record first. A crash of the database loses at most a suffix of the log, never a charge without its attempt.
 */
export function sidePool(name: "test-rail" | "attempts" | "chain-nonce"): pg.Pool {
  const options = name === "test-rail" ? { options: "-c synchronous_commit=off" } : {};
  return globalSingleton(`side-pool.${name}`, () => databasePool(`side pool ${name}`, { max: env.SIDE_POOL_MAX, ...options }));
}

/** Runs `work` in its own committed transaction on a side pool. */
export async function sideTransaction<T>(
  name: "test-rail" | "attempts" | "chain-nonce",
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await sidePool(name).connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
