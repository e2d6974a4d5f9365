// A named statement's execution that skips the Describe step once its connection knows the statement's row shape.
// pg describes every execution: the server answers a RowDescription, and pg parses it and builds the row's field
// parsers again. For the wide rows of the sale's statements (37 to 54 columns) that was 0.4 ms of the server's CPU per
// paid x402 request (docs/BENCHMARKS.md, "The door's token, row shapes, BEGIN with the first statement, ...").
// The shape is kept per connection, by statement name. On its connection a prepared statement's result type cannot
// change (PostgreSQL refuses: "cached plan must not change result type"), so a shape read there stays right for as
// long as the statement exists; another connection describes the statement once for itself.
// A transaction's BEGIN may ride with its first statement (`begin`): BEGIN prepared on the connection is bound and
// executed ahead of the statement, under the statement's one Sync, so the two are one round trip. PostgreSQL skips
// whatever follows a failed message up to the Sync: the statement never runs outside the transaction (and lib/db.ts's
// FirstStatement sends no other statement of the transaction before this one settled).
// Its COMMIT may ride with its last statement (`commit`) the same way: COMMIT prepared on the connection is bound and
// executed after the statement, under its Sync. A statement that fails makes PostgreSQL skip the COMMIT, and the
// transaction is left aborted for its caller's ROLLBACK; COMMIT's own answer (COMMIT, or ROLLBACK for a transaction
// aborted earlier) is the statement's `committed`. A riding COMMIT's statement runs under the transaction's deadline
// (`deadlineMs`): a prepared set_config of statement_timeout, local to the transaction, bound and executed ahead of it
// under the same Sync, so that a last statement waiting on a lock past the deadline fails and COMMIT never runs.
import pg from "pg";

/** What pg's Result keeps of a RowDescription: the fields, their parsers, the empty row each row is copied from. */
interface Shape {
  fields: unknown[];
  parsers: unknown[];
  emptyRow: unknown;
}

/** The parts of pg's Query and Result this class relies on (internal to pg, present since 8.0). */
interface QueryInternals {
  name?: string;
  callback?: unknown;
  _accumulateRows: boolean;
  _result: { fields: unknown[]; _parsers: unknown[]; _prebuiltEmptyResultObject: unknown };
  listeners(event: string): unknown[];
}
interface ConnectionInternals {
  describe(message: unknown): void;
  bind(message: { statement: string; values: unknown[] }): void;
  execute(message: object): void;
  sync(): void;
  parsedStatements: Record<string, string>;
}

/** BEGIN, prepared on a connection by its first transaction (pgTransaction, lib/db.ts); later ones ride with a statement. */
export const BEGIN = { name: "aps_begin", text: "BEGIN" };

/** Whether BEGIN is prepared on this checked-out connection, so that it can ride with the transaction's first statement. */
export function beginPrepared(client: pg.PoolClient): boolean {
  return prepared(client, BEGIN.name);
}

/** COMMIT, prepared on a connection by its first commit (pgTransaction, lib/db.ts); later ones ride with the last statement. */
export const COMMIT = { name: "aps_commit", text: "COMMIT" };

function prepared(client: pg.PoolClient, name: string): boolean {
  return (client as unknown as { connection: ConnectionInternals }).connection.parsedStatements[name] !== undefined;
}

/** Whether COMMIT is prepared on this checked-out connection, so that it can ride with the transaction's last statement. */
export function commitPrepared(client: pg.PoolClient): boolean {
  return prepared(client, COMMIT.name);
}

/** The transaction's statement_timeout ($1: milliseconds, as text), prepared with BEGIN by a connection's first transaction. */
export const DEADLINE = { name: "aps_deadline", text: "SELECT set_config('statement_timeout', $1, true)" };

export function deadlinePrepared(client: pg.PoolClient): boolean {
  return prepared(client, DEADLINE.name);
}

/** How a statement rides: with its transaction's BEGIN ahead of it, its COMMIT after it, or both (a one-statement transaction). */
export interface Riders {
  begin?: boolean;
  commit?: boolean;
  /** The statement_timeout (ms) it runs under, set ahead of it (DEADLINE, prepared on the connection). */
  deadlineMs?: number;
}

const shapesByConnection = new WeakMap<object, Map<string, Shape>>();

function shapesOf(connection: object): Map<string, Shape> {
  let shapes = shapesByConnection.get(connection);
  if (!shapes) shapesByConnection.set(connection, (shapes = new Map()));
  return shapes;
}

const PgQuery = pg.Query as unknown as new (
  config: pg.QueryConfig,
  callback?: (err: Error | null, result: pg.QueryResult) => void,
) => object;

export class ShapedStatement extends PgQuery {
  private connection?: object;
  /** Commands sent ahead of the statement (BEGIN, the deadline): their rows and completions are not the statement's. */
  private leading: number;
  /** COMMIT rides after the statement; the CommandComplete after the statement's is COMMIT's. */
  private readonly commitAfter: boolean;
  private statementCompleted = false;
  /** COMMIT's answer when it rode: "COMMIT", or "ROLLBACK" for a transaction aborted earlier. */
  committed?: string;
  private readonly begin: boolean;
  private readonly deadlineMs?: number;

  constructor(
    config: { name: string; text: string; values: unknown[] },
    callback?: (err: Error | null, result: pg.QueryResult) => void,
    riders: Riders = {},
  ) {
    super(config, callback);
    this.begin = riders.begin === true;
    this.deadlineMs = riders.deadlineMs;
    this.leading = (this.begin ? 1 : 0) + (this.deadlineMs === undefined ? 0 : 1);
    this.commitAfter = riders.commit === true;
  }

  /** pg's own preparation (parse when new to the connection, bind, execute, sync), without Describe once the shape is known. */
  prepare(connection: ConnectionInternals): void {
    this.connection = connection;
    if (this.begin) {
      connection.bind({ statement: BEGIN.name, values: [] });
      connection.execute({});
    }
    if (this.deadlineMs !== undefined) {
      connection.bind({ statement: DEADLINE.name, values: [String(Math.max(1, Math.round(this.deadlineMs)))] });
      connection.execute({});
    }
    const self = this as unknown as QueryInternals;
    const shape = self.name ? shapesOf(connection).get(self.name) : undefined;
    if (shape) {
      Object.assign(self._result, { fields: shape.fields, _parsers: shape.parsers, _prebuiltEmptyResultObject: shape.emptyRow });
      self._accumulateRows = Boolean(self.callback) || !self.listeners("row").length;
    }
    // pg writes its messages synchronously: the connection's methods are swapped for the call and restored at once.
    const { execute, sync } = connection;
    const swapped: Partial<ConnectionInternals> = {};
    if (shape) swapped.describe = () => undefined; // the one message left out
    let executed = false; // pg syncs without executing when it cannot bind the values: then COMMIT must not ride
    if (this.commitAfter) {
      swapped.execute = (message) => {
        executed = true;
        execute.call(connection, message);
      };
      swapped.sync = () => {
        if (executed) {
          connection.bind({ statement: COMMIT.name, values: [] });
          execute.call(connection, {});
        }
        sync.call(connection);
      };
    }
    Object.assign(connection, swapped);
    try {
      (pg.Query.prototype as unknown as { prepare(c: unknown): void }).prepare.call(this, connection);
    } finally {
      for (const name of Object.keys(swapped)) delete (connection as unknown as Record<string, unknown>)[name]; // the prototype's again
    }
  }

  /** The leading commands' rows are passed over. */
  handleDataRow(message: unknown): void {
    if (this.leading > 0) return;
    (pg.Query.prototype as unknown as { handleDataRow(m: unknown): void }).handleDataRow.call(this, message);
  }

  /** The leading commands' completions are passed over, COMMIT's kept; the statement's is pg's to handle. */
  handleCommandComplete(message: unknown, connection: unknown): void {
    if (this.leading > 0) return void this.leading--;
    if (this.statementCompleted && this.commitAfter) return void (this.committed = (message as { text: string }).text);
    this.statementCompleted = true;
    const handle = (pg.Query.prototype as unknown as { handleCommandComplete(m: unknown, c: unknown): void }).handleCommandComplete;
    handle.call(this, message, connection);
  }

  /** pg's handling, then the shape kept for the connection's later executions of this statement. */
  handleRowDescription(message: unknown): void {
    (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, message);
    const self = this as unknown as QueryInternals;
    if (!self.name || !this.connection) return;
    const { fields, _parsers, _prebuiltEmptyResultObject } = self._result;
    shapesOf(this.connection).set(self.name, { fields, parsers: _parsers, emptyRow: _prebuiltEmptyResultObject });
  }
}

/**
 * Runs a named statement on the pool (a connection for the one statement) or on a checked-out connection. `riders`, on a
 * checked-out connection only: BEGIN rides ahead of it (where beginPrepared), COMMIT after it (where commitPrepared);
 * with COMMIT, the result's `committed` is COMMIT's answer.
 */
export function runShaped(
  queryable: pg.Pool | pg.PoolClient,
  s: { name: string; text: string },
  values: unknown[],
  riders: Riders = {},
): Promise<pg.QueryResult & { committed?: string }> {
  const config = { name: s.name, text: s.text, values };
  // The pool's query sets its own callback (it releases the connection there); a checked-out connection's does not.
  if (queryable instanceof pg.Pool) return queryable.query(new ShapedStatement(config) as never) as unknown as Promise<pg.QueryResult>;
  return new Promise((resolve, reject) => {
    const shaped: ShapedStatement = new ShapedStatement(
      config,
      // A failure after COMMIT's answer (the connection lost before ReadyForQuery) still says it committed.
      (err, result) =>
        err ? reject(Object.assign(err, { committed: shaped.committed })) : resolve(Object.assign(result, { committed: shaped.committed })),
      riders,
    );
    queryable.query(shaped as never);
  });
}
