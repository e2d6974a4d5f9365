// The process's one Postgres connection pool, the Prisma client over it, and raw SQL on it.
// Prisma is the default for domain code. Hot paths (the request pipeline, simple routes) use `Sql`
// instead: each Prisma call costs about a millisecond of CPU in its query compiler, a pg statement a
// few dozen microseconds.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "./generated/prisma/client";
import { env, requireDatabaseUrl } from "./env";

/** A client domain functions run their queries on: the transaction they are part of, or the pool. */
export type Db = Prisma.TransactionClient;

const globalForDb = globalThis as unknown as { pool?: pg.Pool; prisma?: PrismaClient };

/** Created on first use, so importing this module never needs a database. */
export function getPool(): pg.Pool {
  if (!globalForDb.pool) {
    globalForDb.pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: env.DB_POOL_MAX, allowExitOnIdle: true });
    globalForDb.pool.on("error", (err) => console.error("database pool:", err.message));
  }
  return globalForDb.pool;
}

export function getDb(): PrismaClient {
  globalForDb.prisma ??= new PrismaClient({ adapter: new PrismaPg(getPool()) });
  return globalForDb.prisma;
}

/** Closes the Prisma client and the pool (scripts call this before they exit). */
export async function closeDb(): Promise<void> {
  const { prisma, pool } = globalForDb;
  globalForDb.prisma = undefined;
  globalForDb.pool = undefined;
  await prisma?.$disconnect();
  await pool?.end();
}

/** A transaction still open after this long is rolled back by Prisma (rail calls stay well under it). */
export const TRANSACTION_TIMEOUT_MS = 15_000;

/** Runs `work` in one database transaction: everything in it commits together or not at all. */
export function transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
  return getDb().$transaction(work, { maxWait: 5_000, timeout: TRANSACTION_TIMEOUT_MS });
}

/**
 * A named SQL statement: each connection parses and plans it once, later uses only bind values.
 * Define statements once, at module level; a name always means the same text.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

const statementTexts = new Map<string, string>();

export function statement(name: string, text: string): Statement {
  const known = statementTexts.get(name);
  if (known !== undefined && known !== text) throw new Error(`SQL statement name '${name}' is already used for another text`);
  statementTexts.set(name, text);
  return { name, text };
}

/** Raw SQL on the pool (each statement commits on its own) or on one transaction's connection. */
export interface Sql {
  rows<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /** How many rows an INSERT, UPDATE or DELETE wrote. */
  count(statement: Statement, values: unknown[]): Promise<number>;
}

export function sqlOn(queryable: pg.Pool | pg.PoolClient): Sql {
  return {
    async rows<R>(s: Statement, values: unknown[]) {
      return (await queryable.query({ name: s.name, text: s.text, values })).rows as R[];
    },
    async count(s: Statement, values: unknown[]) {
      return (await queryable.query({ name: s.name, text: s.text, values })).rowCount ?? 0;
    },
  };
}

/** Raw SQL on the pool: every statement is its own transaction. */
export function sql(): Sql {
  return sqlOn(getPool());
}

/**
 * A transaction that begins with its first statement, so that work which turns out to need a single
 * statement runs it on the pool as its own transaction: one round trip instead of three.
 */
export class DeferredTransaction implements Sql {
  private beginning?: Promise<pg.PoolClient>;
  private client?: pg.PoolClient;
  private finished = false;

  rows<R>(s: Statement, values: unknown[]): Promise<R[]> {
    return this.begin().then((client) => sqlOn(client).rows<R>(s, values));
  }

  count(s: Statement, values: unknown[]): Promise<number> {
    return this.begin().then((client) => sqlOn(client).count(s, values));
  }

  /** The transaction if it began, else the pool (where a statement is its own transaction). */
  current(): Sql {
    return this.beginning ? this : sql();
  }

  private begin(): Promise<pg.PoolClient> {
    this.beginning ??= (async () => {
      const client = await getPool().connect();
      try {
        await client.query("BEGIN");
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      this.client = client;
      return client;
    })();
    return this.beginning;
  }

  async commit(): Promise<void> {
    if (!this.beginning) return;
    await (await this.beginning).query("COMMIT");
    this.release();
  }

  /** Rolls back if it began and is not finished; never throws. */
  async rollback(): Promise<void> {
    const client = await this.beginning?.catch(() => undefined);
    if (!client || this.finished) return;
    const failed = await client.query("ROLLBACK").then(
      () => undefined,
      (err: Error) => err,
    );
    this.release(failed); // a connection that could not roll back is closed, never reused
  }

  private release(err?: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.client?.release(err);
  }
}

/**
 * A write planned together with its result: the statement has not run yet. The request pipeline runs it
 * in the same statement as storing the idempotent response; other callers use run().
 */
export class SqlWrite<T = unknown> {
  constructor(
    readonly statement: Statement,
    readonly values: unknown[],
    readonly result: T,
  ) {}

  async run(db: Sql): Promise<T> {
    await db.count(this.statement, this.values);
    return this.result;
  }
}
