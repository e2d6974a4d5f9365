// Small pg pools apart from the Prisma pool, for writes that must commit on their own, outside the
// request's transaction: the test rail's books (an external system) and charge-attempt records (written
// before calling a rail, so that a crash after the charge leaves a trace). Separate pools also mean a
// request that holds a transaction connection never waits on its own pool for these.
import pg from "pg";
import { env, requireDatabaseUrl } from "./env";

const globalForPools = globalThis as unknown as { sidePools?: Map<string, pg.Pool> };

export function sidePool(name: "test-rail" | "attempts"): pg.Pool {
  globalForPools.sidePools ??= new Map();
  let pool = globalForPools.sidePools.get(name);
  if (!pool) {
    pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: env.SIDE_POOL_MAX });
    pool.on("error", (err) => console.error(`side pool ${name}:`, err.message));
    globalForPools.sidePools.set(name, pool);
  }
  return pool;
}

/** Runs `work` in its own committed transaction on a side pool. */
export async function sideTransaction<T>(name: "test-rail" | "attempts", work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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
