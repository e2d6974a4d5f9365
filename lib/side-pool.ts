// Small pg pools apart from the Prisma pool, for writes that must commit on their own, outside the
// request's transaction: the test rail's books (an external system) and charge-attempt records (written
// before calling a rail, so that a crash after the charge leaves a trace), and the live x402 facilitator
// account's nonce lock, held while one transaction is sent. Separate pools also mean a
// request that holds a transaction connection never waits on its own pool for these.
import type pg from "pg";
import { databasePool } from "./db";
import { env } from "./env";
import { globalSingleton } from "./global-singleton";

export function sidePool(name: "test-rail" | "attempts" | "chain-nonce"): pg.Pool {
  return globalSingleton(`side-pool.${name}`, () => databasePool(`side pool ${name}`, { max: env.SIDE_POOL_MAX }));
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
