// The process's one Postgres connection pool, the Prisma client over it, and raw SQL on it.
// Prisma is the default for domain code. Hot paths (the request pipeline, simple routes, the charge engine) use
// `Sql` instead, inside a Prisma transaction through sqlIn: each Prisma call costs about a millisecond of CPU in its
// query compiler, a prepared pg statement a few dozen microseconds. Work made of such statements only may run in a
// plain pg transaction instead (pgTransaction: the API capture), without Prisma's transaction machinery.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "./generated/prisma/client";
import { connectThroughBreaker, databaseState, logUnlessDatabaseDown } from "./db-availability";
import { env, requireDatabaseUrl } from "./env";
import { BusyError, InvariantViolation } from "./errors";
import { globalSingleton } from "./global-singleton";
import { BEGIN, beginPrepared, COMMIT, commitPrepared, DEADLINE, deadlinePrepared, runShaped, type Riders } from "./shaped-statement";

/** A client domain functions run their queries on: the transaction they are part of, or the pool. */
export type Db = Prisma.TransactionClient;

/** The process's pool and Prisma client, made on first use and dropped by closeDb (the holder is shared at once). */
const clients = globalSingleton("db.clients", (): { pool?: pg.Pool; prisma?: PrismaClient } => ({}));

/**
 * A connection that opens through the database's breaker (lib/db-availability.ts): while the database is known
 * to be unreachable none is attempted, and a connect that takes longer than DB_CONNECT_TIMEOUT_MS fails.
 * Every pool of the service (and the event listener) makes its connections of this class.
 */
export class DatabaseClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({ ...(typeof config === "string" ? { connectionString: config } : config), connectionTimeoutMillis: env.DB_CONNECT_TIMEOUT_MS });
    // A connection that dies while checked out and between queries emits "error" with nobody listening (an
    // uncaught exception); its next query fails anyway, and an outage is logged once by the breaker.
    this.on("error", (err) => logUnlessDatabaseDown("database connection:", err));
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
    const connecting = connectThroughBreaker(() => super.connect());
    if (!callback) return connecting;
    const done = callback as (err: Error | null, c?: pg.Client) => void;
    connecting.then((client) => done(null, client), done);
  }
}

/** A pool of DatabaseClient connections; an idle one the database dropped is logged unless it is an outage (said once). */
export function databasePool(name: string, config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, connectionString: requireDatabaseUrl(), Client: DatabaseClient });
  pool.on("error", (err) => logUnlessDatabaseDown(`${name}:`, err));
  return pool;
}

/** Created on first use, so importing this module never needs a database. */
export function getPool(): pg.Pool {
  return (clients.pool ??= databasePool("database pool", { max: env.DB_POOL_MAX, allowExitOnIdle: true }));
}

/**
 * Whether the database can be reached as far as its breaker knows, for what must not wait on a failing query (a
 * page's proxy): closed yes, open no; due for a trial, one connection is tried (and closes or re-opens it).
 */
export async function databaseReachable(): Promise<boolean> {
  const state = databaseState();
  if (state !== "half_open") return state === "closed";
  try {
    (await getPool().connect()).release();
    return true;
  } catch {
    return false;
  }
}

export function getDb(): PrismaClient {
  return (clients.prisma ??= new PrismaClient({ adapter: new PrismaPg(poolTellingTransactions(getPool())) }));
}

/**
 * The connection of a transaction(), for statements (sqlIn) to run in the same transaction as its Prisma calls:
 * Prisma's adapter checks a connection out of the pool to begin the transaction, inside transaction()'s async
 * context, where the pool tells it to the transaction's slot. Released (committed, rolled back, or timed out), the
 * slot is closed, so that a late statement can never run on a connection another request has checked out since.
 * A pgTransaction's slot holds the connection it began on.
 */
interface TransactionSlot {
  client?: pg.PoolClient;
  closed: boolean;
  /** A pgTransaction's first statement, which may carry its BEGIN (FirstStatement). */
  first?: FirstStatement;
  /** Writes deferred to the transaction's next statement (deferWrites). */
  deferred: PlannedWrite[];
  /** The deferred writes being run in a statement of their own (runDeferred): later statements and Prisma calls wait. */
  flushing?: Promise<void>;
  /** What such a run threw: thrown again at the end of the transaction, even if the caller caught it (runDeferred). */
  failed?: unknown;
  /** The write that must change a row, run last (closeWith). */
  closing?: ClosingWrite;
}
const checkingOut = new AsyncLocalStorage<TransactionSlot>();
const transactionSlots = new WeakMap<object, TransactionSlot>();

function poolTellingTransactions(pool: pg.Pool): pg.Pool {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  pool.connect = ((callback?: unknown) => {
    const slot = checkingOut.getStore();
    if (callback || !slot || slot.client) return (connect as (cb?: unknown) => unknown)(callback);
    return connect().then((client) => {
      slot.client = client;
      const release = client.release;
      client.release = (err?: Error | boolean) => {
        slot.closed = true;
        client.release = release;
        return release.call(client, err);
      };
      return client;
    });
  }) as typeof pool.connect;
  return pool;
}

/** Closes the Prisma client and the pool (scripts call this before they exit). */
export async function closeDb(): Promise<void> {
  const { prisma, pool } = clients;
  clients.prisma = undefined;
  clients.pool = undefined;
  await prisma?.$disconnect();
  await pool?.end();
}

/** A transaction still open after this long is rolled back by Prisma (rail calls stay well under it). */
export const TRANSACTION_TIMEOUT_MS = 15_000;

/** How long a transaction waits for a pool connection (transaction()'s maxWait too). */
const TRANSACTION_MAX_WAIT_MS = 5_000;

/** Runs `work` in one database transaction: everything in it commits together or not at all. */
export function transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
  const slot: TransactionSlot = { closed: false, deferred: [] };
  return checkingOut.run(slot, () =>
    getDb().$transaction(
      async (prismaTx) => {
        const tx = flushingBeforePrisma(prismaTx, slot);
        transactionSlots.set(tx, slot);
        const result = await work(tx);
        if (slot.failed) throw slot.failed; // caught by the work: the transaction is aborted, its COMMIT would roll back
        await flushDeferred(tx); // what no later statement took, before the commit
        return result;
      },
      { maxWait: TRANSACTION_MAX_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS },
    ),
  );
}

/**
 * Runs `work` in one plain pg transaction, with what transaction() guarantees: everything commits together (the
 * deferred writes flushed before COMMIT), a throw rolls it all back, it is rolled back once open for
 * TRANSACTION_TIMEOUT_MS, and it waits at most TRANSACTION_MAX_WAIT_MS for its connection. Without Prisma's interactive transaction (its client engine, its transaction manager, the
 * slot's hand-over), which costs more CPU than the statements of a capture. For work whose every statement goes
 * through sqlIn and deferWrites: `tx` has no Prisma client, and a Prisma call on it throws.
 */
export async function pgTransaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
  const slot: TransactionSlot = { client: await connectWithin(TRANSACTION_MAX_WAIT_MS), closed: false, deferred: [] };
  const deadline = Date.now() + TRANSACTION_TIMEOUT_MS;
  const tx = statementsOnly(slot);
  const timeout = setTimeout(() => void endTransaction(slot, "ROLLBACK"), TRANSACTION_TIMEOUT_MS);
  try {
    // BEGIN prepared on the connection rides with the work's first statement: one round trip fewer. A connection's
    // first transaction prepares it, and the deadline a riding COMMIT's statement runs under (commitPgTransaction).
    const client = slot.client!;
    const folded = beginPrepared(client) && deadlinePrepared(client);
    if (!folded) {
      await client.query(BEGIN);
      await client.query({ ...DEADLINE, values: [String(TRANSACTION_TIMEOUT_MS)] });
    }
    slot.first = new FirstStatement(folded);
    const result = await work(tx);
    await commitPgTransaction(slot, tx, deadline);
    return result;
  } catch (err) {
    await endTransaction(slot, "ROLLBACK");
    throw err;
  } finally {
    clearTimeout(timeout);
  }
}

/**
 * A connection of the pool, or a BusyError (409, the claim freed for a retry) when none came within `ms`: a request
 * must not wait for a connection past its Idempotency-Key's lock. One that comes later goes straight back.
 */
async function connectWithin(ms: number): Promise<pg.PoolClient> {
  const connecting = getPool().connect();
  let timer: NodeJS.Timeout | undefined;
  const tooLate = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BusyError("The service is busy: no database connection came free in time; retry shortly.")), ms);
  });
  try {
    return await Promise.race([connecting, tooLate]);
  } catch (err) {
    connecting.then(
      (client) => client.release(),
      () => undefined,
    );
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A pgTransaction's COMMIT or ROLLBACK, once: the slot closes first (no statement runs after it), then the connection
 * goes back to the pool, closed and never reused if the command failed. A COMMIT after the time-out's ROLLBACK throws.
 */
async function endTransaction(slot: TransactionSlot, command: "COMMIT" | "ROLLBACK"): Promise<void> {
  if (slot.closed) {
    if (command === "COMMIT") throw new Error("Transaction already closed: rolled back after TRANSACTION_TIMEOUT_MS.");
    return;
  }
  slot.closed = true;
  const client = slot.client!;
  if (slot.first?.unsent) return client.release(); // no statement ran: BEGIN was never sent
  // A first statement that failed may have taken its BEGIN with it: only a rollback is certain.
  const abandoned = command === "COMMIT" && slot.first?.failed === true;
  // COMMIT prepared (a connection's first commit prepares it), so that later ones can ride with a last statement.
  const failed = await client.query(abandoned || command === "ROLLBACK" ? "ROLLBACK" : COMMIT).then(
    // A transaction a failed statement aborted answers COMMIT with ROLLBACK: nothing was written.
    (result) =>
      abandoned || (command === "COMMIT" && result.command === "ROLLBACK")
        ? new Error("The transaction was aborted: COMMIT rolled back.")
        : undefined,
    (err: Error) => err,
  );
  client.release(failed);
  if (failed && command === "COMMIT") throw failed;
}

/**
 * A pgTransaction's COMMIT. The writes still deferred (and the closing write) run in a last statement, and COMMIT rides
 * with it when it is prepared on the connection (lib/shaped-statement.ts): one round trip for both. A last statement that
 * fails makes PostgreSQL skip the COMMIT: the transaction is rolled back and the error thrown. The time-out's ROLLBACK
 * cannot come between them, so the statement runs under the time left (statement_timeout, `deadline`): past it, it
 * fails and nothing commits, as the time-out would have had it.
 */
async function commitPgTransaction(slot: TransactionSlot, tx: Db, deadline: number): Promise<void> {
  const last = lastStatement(slot);
  const client = slot.client!;
  if (!last || slot.closed || !commitPrepared(client) || !deadlinePrepared(client)) {
    if (last) await runLast(last, (w) => sqlIn(tx).rows(w.statement, [...w.values]));
    return endTransaction(slot, "COMMIT");
  }
  slot.closed = true; // nothing else runs on it, the time-out's ROLLBACK neither
  const deadlineMs = deadline - Date.now();
  const commit = (w: PlannedWrite) =>
    slot.first!.run((riders) => runShaped(client, w.statement, [...w.values], { ...riders, deadlineMs }), true);
  const failed = await runLast(last, async (w) => (await commit(w)).committed).then(
    (committed) => (committed === "COMMIT" ? undefined : new Error("The transaction was aborted: COMMIT rolled back.")),
    (err: Error & { committed?: string }) => err,
  );
  if (!failed) return client.release();
  // COMMIT answered, then the connection failed: committed. The connection is not reused.
  if ((failed as { committed?: string }).committed === "COMMIT") return client.release(failed);
  // A failed last statement left the transaction aborted (a failed COMMIT ended it already: ROLLBACK only warns).
  const lost = await client.query("ROLLBACK").then(
    () => undefined,
    (err: Error) => err,
  );
  client.release(lost);
  throw failed;
}

/** A pgTransaction's `tx`: what sqlIn and deferWrites find its connection by. Any Prisma call on it throws. */
function statementsOnly(slot: TransactionSlot): Db {
  const tx = new Proxy(
    {},
    {
      get(_, property) {
        if (typeof property === "symbol" || property === "then") return undefined; // not a promise, not inspectable
        throw new InvariantViolation(`tx.${property}: a pgTransaction (lib/db.ts) runs statements only; use sqlIn(tx).`);
      },
    },
  ) as Db;
  transactionSlots.set(tx, slot);
  return tx;
}

/**
 * A plain pg transaction's first statement, which carries its BEGIN when BEGIN is prepared on the connection
 * (lib/shaped-statement.ts). No other statement is sent until it has settled: had it failed before its BEGIN ran, they
 * would run outside the transaction, each committing on its own. Once it failed, every later statement throws and
 * the transaction can only roll back.
 */
class FirstStatement {
  private sent?: Promise<unknown>;
  failed = false;

  /** `folded`: BEGIN is not sent yet; it rides with the first statement. Else BEGIN ran already. */
  constructor(private folded: boolean) {}

  /** Whether no statement was sent, BEGIN neither. */
  get unsent(): boolean {
    return this.folded;
  }

  /** Sends the statement with what rides with it: BEGIN when it is the first, COMMIT when `commit` (commitPgTransaction). */
  async run<T>(statement: (riders: Riders) => Promise<T>, commit = false): Promise<T> {
    if (this.folded) {
      this.folded = false;
      const first = statement({ begin: true, commit }).catch((err: unknown) => {
        this.failed = true;
        throw err;
      });
      this.sent = first;
      return first;
    }
    if (this.sent) await this.sent.catch(() => undefined);
    if (this.failed) throw new Error("The transaction was aborted: its first statement failed.");
    return statement({ commit });
  }
}

/**
 * Statements on what a domain function was given: a transaction() (on its own connection, inside it) or the Prisma
 * client (the pool, each statement its own transaction). A prepared statement costs about a tenth of a Prisma call's
 * CPU (its query compiler), so the charge engine's hot path runs on this.
 */
export function sqlIn(db: Db | PrismaClient): Sql {
  if (db === (clients.prisma as unknown)) return sql();
  const slot = transactionSlots.get(db);
  if (!slot?.client) return throughPrisma(db); // another client's transaction (a test's own database)
  const open = <T>(run: (on: Sql) => Promise<T>): Promise<T> => onSlot(slot, run);
  // The writes deferred so far run first, in the same statement; when one of them must change a row, all of them run
  // first in a checked statement of their own (runDeferred), so that this one sees them.
  const withDeferred = async (s: Statement, values: unknown[]) => {
    const running = slot.deferred.some((w) => w.mustChange) ? runDeferred(slot) : slot.flushing;
    if (running) await running;
    return withWritesBefore({ statement: s, values }, slot.deferred.splice(0), "d");
  };
  return {
    rows: async (s, values) => {
      const w = await withDeferred(s, values);
      return open((on) => on.rows(w.statement, [...w.values]));
    },
    count: async (s, values) => {
      const w = await withDeferred(s, values);
      return open((on) => on.count(w.statement, [...w.values]));
    },
  };
}

/** A statement on a transaction's own connection, as it is (no deferred writes taken): never once the slot is closed. */
function onSlot<T>(slot: TransactionSlot, run: (on: Sql) => Promise<T>): Promise<T> {
  if (slot.closed) throw new Error("Transaction already closed: its connection was released (committed, rolled back or timed out).");
  const client = slot.client!;
  return slot.first ? slot.first.run((riders) => run(sqlOn(client, riders))) : run(sqlOn(client));
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

/** A write planned now and run later in the same transaction, inside another statement (withWritesBefore). */
export interface PlannedWrite {
  readonly statement: Statement;
  readonly values: readonly unknown[];
  /**
   * A deferred write that must change a row (it ends in RETURNING): what is thrown when it changed none (an
   * InvariantViolation, the whole transaction rolled back). Checked by the statement that runs it (checkedWrites).
   */
  readonly mustChange?: string;
}

/**
 * Writes that must commit with the transaction but that nothing in it reads afterwards (a ledger posting, outbox
 * events): they run fused into the transaction's next statement through sqlIn (withWritesBefore), or just before
 * its commit, one round trip fewer each. Once one of them must change a row (mustChange: a predicted transition), the
 * pending writes run checked, in a statement of their own, before any later statement (which may read them), or with
 * the last. A Prisma call in a transaction() runs them all first, likewise (flushingBeforePrisma). On the pool or a
 * transaction this process did not begin: at once.
 */
export async function deferWrites(db: Db | PrismaClient, writes: readonly PlannedWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const slot = transactionSlots.get(db);
  if (slot?.client && !slot.closed) {
    slot.deferred.push(...writes);
    return;
  }
  const checked = checkedWrites([...writes]);
  if (checked?.lost) return void (await runLast(checked, (w) => sqlIn(db).rows(w.statement, [...w.values])));
  const fused = withWritesBefore(writes[writes.length - 1], writes.slice(0, -1), "b");
  await sqlIn(db).count(fused.statement, [...fused.values]);
}

/** A write that must change a row (its RETURNING gives one when it did), run last: closeWith. */
interface ClosingWrite {
  write: PlannedWrite;
  /** What is thrown when it changed nothing (the whole transaction rolled back). */
  lost: string;
}

/**
 * A write that must change a row (it ends in RETURNING), planned to run last in the transaction: with the writes still
 * deferred, in the statement that carries COMMIT on a pgTransaction (one round trip for the write and the commit). When
 * it changes nothing, that statement fails (a division by zero) and the whole transaction rolls back with `lost`
 * (an InvariantViolation). Nothing in the transaction reads its row after it. One per transaction. On the pool or a
 * transaction this process did not begin: at once, with the same check.
 */
export async function closeWith(db: Db | PrismaClient, write: PlannedWrite, lost: string): Promise<void> {
  const slot = transactionSlots.get(db);
  if (slot?.client && !slot.closed) {
    if (slot.closing) throw new InvariantViolation("closeWith: a transaction has one closing write");
    slot.closing = { write, lost };
    return;
  }
  const written = await sqlIn(db).rows(write.statement, [...write.values]);
  if (written.length === 0) throw new InvariantViolation(lost);
}

// The statement that carries deferred writes when nothing else is left to run.
const NOTHING = statement("deferred_writes", "SELECT 1");
const DIVISION_BY_ZERO = "22012";

/** The transaction's last statement: the writes still deferred, and the closing write checked. Null when there are none. */
function lastStatement(slot: TransactionSlot): { write: PlannedWrite; lost?: string } | null {
  const writes = slot.deferred.splice(0);
  const closing = slot.closing;
  slot.closing = undefined;
  return checkedWrites(closing ? [...writes, { ...closing.write, mustChange: closing.lost }] : writes);
}

/**
 * `writes` in one statement, in order; when some must change a row (mustChange), it divides by the sign of the least
 * of their row counts, so that one which changed none fails it (a division by zero, thrown by runLast as their `lost`).
 */
function checkedWrites(writes: PlannedWrite[]): { write: PlannedWrite; lost?: string } | null {
  if (!writes.length) return null;
  const checked = writes.flatMap((w, i) => (w.mustChange ? [i] : []));
  if (!checked.length) return { write: withWritesBefore({ statement: NOTHING, values: [] }, writes, "d") };
  const counts = checked.map((i) => `(SELECT count(*) FROM d${i})`).join(", ");
  const check = statement(`checked_writes_${checked.join("_")}`, `SELECT 1 / sign(least(${counts}))::int AS written`);
  const lost = checked.map((i) => writes[i].mustChange).join("; or ");
  return { write: withWritesBefore({ statement: check, values: [] }, writes, "d"), lost };
}

/** Runs the last statement; a closing write that changed nothing is its `lost`. */
function runLast<T>(last: { write: PlannedWrite; lost?: string }, run: (write: PlannedWrite) => Promise<T>): Promise<T> {
  return run(last.write).catch((err: unknown) => {
    throw last.lost && (err as { code?: string }).code === DIVISION_BY_ZERO ? new InvariantViolation(last.lost) : err;
  });
}

/**
 * A transaction()'s Prisma client whose every call (a model's method, $queryRaw, ...) first runs the writes deferred so
 * far, checked, in a statement of their own (runDeferred): a Prisma call reads them, as a statement through sqlIn does
 * (the closing write, closeWith, still runs last). With nothing deferred, the call is Prisma's own, untouched; with
 * writes pending it is an eager promise run after them (a query made before a deferral runs without them).
 */
function flushingBeforePrisma(tx: Db, slot: TransactionSlot): Db {
  const flushed = <F extends (...args: unknown[]) => unknown>(call: F, self: object) =>
    function (...args: unknown[]) {
      const before = slot.deferred.length ? runDeferred(slot) : slot.flushing;
      return before ? before.then(() => call.apply(self, args)) : call.apply(self, args);
    };
  const models = new Map<PropertyKey, object>();
  const wrap = (target: object): object =>
    new Proxy(target, {
      get(t, property) {
        const value = Reflect.get(t, property) as unknown;
        if (typeof property === "symbol" || property === "then") return value;
        if (typeof value === "function") return flushed(value as (...args: unknown[]) => unknown, t);
        if (value === null || typeof value !== "object" || t !== tx) return value;
        const model = models.get(property) ?? wrap(value);
        models.set(property, model);
        return model;
      },
    });
  return wrap(tx) as Db;
}

/**
 * The writes deferred so far, run now, checked, in a statement of their own (after any such run still going): before a
 * Prisma call, or a statement that must see a predicted transition. Statements and Prisma calls meanwhile wait for it
 * (slot.flushing). Its failure is kept on the slot: the transaction fails even if the caller catches it.
 */
function runDeferred(slot: TransactionSlot): Promise<void> {
  const checked = checkedWrites(slot.deferred.splice(0))!;
  const run = () => runLast(checked, (w) => onSlot(slot, (on) => on.rows(w.statement, [...w.values])));
  const flushing = (slot.flushing ?? Promise.resolve()).then(run).then(
    () => undefined,
    (err: unknown) => {
      slot.failed ??= err;
      throw err;
    },
  );
  slot.flushing = flushing;
  void flushing.finally(() => slot.flushing === flushing && (slot.flushing = undefined)).catch(() => undefined);
  return flushing;
}

/** The deferred writes no later statement took, and the closing write: run before the commit, in a statement of their own. */
async function flushDeferred(tx: Db): Promise<void> {
  const slot = transactionSlots.get(tx);
  const last = slot && lastStatement(slot);
  if (last) await runLast(last, (w) => sqlIn(tx).rows(w.statement, [...w.values]));
}

/**
 * `main` with `before` in the same statement, each a data-modifying CTE: what running them first in the same
 * transaction does, in one round trip. They must not need to see one another's rows (a statement has one
 * snapshot): independent inserts, and updates of other rows. Each of `before` is one INSERT, UPDATE or DELETE
 * with no WITH and no `$` but its parameters, which are renumbered after main's; main may begin with WITH (not
 * RECURSIVE). The CTEs are named `<prefix>0`, `<prefix>1`, ... (a prefix main's own CTEs do not use); `returning`:
 * more columns appended to main's RETURNING (or SELECT list), which may name them. The statement is named by its
 * text's hash: each shape is parsed once per connection.
 */
export function withWritesBefore(main: PlannedWrite, before: readonly PlannedWrite[], prefix: string, returning = ""): PlannedWrite {
  if (before.length === 0 && !returning) return main;
  const values = [...main.values];
  const ctes = before.map((write, i) => {
    const offset = values.length;
    values.push(...write.values);
    return `${prefix}${i} AS (${write.statement.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
  const mainText = main.statement.text + returning;
  if (/^\s*WITH\s+RECURSIVE\b/i.test(mainText)) throw new Error("withWritesBefore: a recursive main statement");
  const text = !ctes.length
    ? mainText
    : /^\s*WITH\s/i.test(mainText)
      ? mainText.replace(/^\s*WITH\s/i, `WITH ${ctes.join(",\n")},\n`)
      : `WITH ${ctes.join(",\n")}\n${mainText}`;
  return { statement: statement(`fused_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`, text), values };
}

/**
 * A statement run for an API caller, written against a CTE `caller (api_key_id, merchant_id, livemode)` that holds
 * one row when the caller may go ahead and none otherwise: its CTEs and SELECT take the caller from there, so
 * that without it they read and write nothing, and its SELECT gives exactly one row when the caller is there. Its
 * own parameters are $1..$params. A route runs it with its authentication (`api(operation, { statement },
 * handler)`): the API-key step puts it inside the API-key statement (lib/http/authenticate.ts), so the whole
 * request is ONE round trip. `alone` is the same work with the caller as parameters ($params+1..$params+3), for
 * the Redis buckets (the key is found first) and for callers without an API key (`runAsCaller`).
 */
export interface CallerStatement<R> {
  readonly name: string;
  readonly params: number;
  /** Its CTEs after `caller`, comma-separated (none: ""). Names of its own, not the API-key statement's. */
  readonly ctes: string;
  /** Its SELECT; no column named `key_*` or `ip_*` (the API-key statement's). */
  readonly select: string;
  readonly alone: Statement;
  /** Never set: the type of its row. */
  readonly row?: R;
}

export function callerStatement<R>(name: string, params: number, body: { ctes?: string; select: string }): CallerStatement<R> {
  const ctes = body.ctes ?? "";
  const alone = statement(name, `WITH ${[callerParameters(params), ctes].filter(Boolean).join(",\n")}\n${body.select}`);
  return { name, params, ctes, select: body.select, alone };
}

/** The `caller` CTE of a caller statement run on its own: the caller as parameters $params+1..$params+3. */
export function callerParameters(params: number): string {
  const p = (n: number) => `$${params + n}`;
  return `caller AS (SELECT ${p(1)}::text AS api_key_id, ${p(2)}::text AS merchant_id, ${p(3)}::boolean AS livemode)`;
}

/** A caller statement with the values of its own parameters: what a route plans before its caller is known. */
export interface CallerQuery<R> {
  statement: CallerStatement<R>;
  values: unknown[];
}

/** A caller already known, as a caller statement run on its own takes it (no API key: null). */
export interface KnownCaller {
  apiKeyId: string | null;
  merchantId: string;
  livemode: boolean;
}

/**
 * A create planned whole before its caller is known: a caller statement that writes from its `caller` CTE only (so
 * that nothing is written for a refused or replayed request), and the success answer's body for a caller in either
 * mode (the one thing of the caller's an object shows). The request pipeline runs it inside the API-key statement,
 * beside the idempotency claim stored with the answer (`api(operation, { write })`, lib/http/route-write.ts).
 */
export interface CallerWrite {
  query: CallerQuery<unknown>;
  answer: (livemode: boolean) => unknown;
}

/** Runs a caller statement on its own for a caller already known. */
export async function runAsCaller<R>(db: Sql, query: CallerQuery<R>, caller: KnownCaller): Promise<R> {
  const [row] = await db.rows<R>(query.statement.alone, [...query.values, caller.apiKeyId, caller.merchantId, caller.livemode]);
  return row;
}

/** Raw SQL on the pool (each statement commits on its own) or on one transaction's connection. */
export interface Sql {
  rows<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /** How many rows an INSERT, UPDATE or DELETE wrote. */
  count(statement: Statement, values: unknown[]): Promise<number>;
}

/** `riders`: the statement is a pgTransaction's first, and BEGIN rides ahead of it (lib/shaped-statement.ts). */
export function sqlOn(queryable: pg.Pool | pg.PoolClient, riders: Riders = {}): Sql {
  return {
    async rows<R>(s: Statement, values: unknown[]) {
      return (await runShaped(queryable, s, values, riders)).rows as R[];
    },
    async count(s: Statement, values: unknown[]) {
      return (await runShaped(queryable, s, values, riders)).rowCount ?? 0;
    },
  };
}

/** Raw SQL on the pool: every statement is its own transaction. */
export function sql(): Sql {
  return sqlOn(getPool());
}

/** Statements through Prisma's raw queries (unprepared): for a transaction this process did not begin. */
function throughPrisma(db: Db | PrismaClient): Sql {
  return {
    rows: <R>(s: Statement, values: unknown[]) => db.$queryRawUnsafe<R[]>(s.text, ...values),
    count: (s, values) => db.$executeRawUnsafe(s.text, ...values),
  };
}

/**
 * A transaction that begins with its first statement, so that work which turns out to need a single
 * statement runs it on the pool as its own transaction: one round trip instead of three.
 */
export class DeferredTransaction implements Sql {
  private beginning?: Promise<pg.PoolClient>;
  private client?: pg.PoolClient;
  private finished = false;
  private first?: FirstStatement;

  rows<R>(s: Statement, values: unknown[]): Promise<R[]> {
    return this.begin().then((client) => this.first!.run((riders) => sqlOn(client, riders).rows<R>(s, values)));
  }

  count(s: Statement, values: unknown[]): Promise<number> {
    return this.begin().then((client) => this.first!.run((riders) => sqlOn(client, riders).count(s, values)));
  }

  /** The transaction if it began, else the pool (where a statement is its own transaction). */
  current(): Sql {
    return this.beginning ? this : sql();
  }

  private begin(): Promise<pg.PoolClient> {
    this.beginning ??= (async () => {
      const client = await getPool().connect();
      try {
        const folded = beginPrepared(client);
        if (!folded) await client.query(BEGIN);
        this.first = new FirstStatement(folded);
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
    const client = await this.beginning;
    if (this.first?.failed) {
      await this.rollback();
      throw new Error("The transaction was aborted: its first statement failed.");
    }
    await client.query("COMMIT");
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
