// The one Prisma client of the process, over node-postgres, and the transaction helper.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "./generated/prisma/client";
import { env, requireDatabaseUrl } from "./env";

/** A client domain functions run their queries on: the transaction they are part of, or the pool. */
export type Db = Prisma.TransactionClient;

const globalForDb = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  const adapter = new PrismaPg({ connectionString: requireDatabaseUrl(), max: env.DB_POOL_MAX });
  return new PrismaClient({ adapter });
}

/** Created on first use, so importing this module never needs a database. */
export function getDb(): PrismaClient {
  globalForDb.prisma ??= createClient();
  return globalForDb.prisma;
}

/** A transaction still open after this long is rolled back by Prisma (rail calls stay well under it). */
export const TRANSACTION_TIMEOUT_MS = 15_000;

/** Runs `work` in one database transaction: everything in it commits together or not at all. */
export function transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
  return getDb().$transaction(work, { maxWait: 5_000, timeout: TRANSACTION_TIMEOUT_MS });
}
