// Whether the database can be reached, decided by its connections (docs/operations.md "Database outage").
// Every new connection of the service's pools goes through ONE breaker per process (lib/db.ts): the first
// connection of an outage that fails (refused, timed out, "the database system is starting up / shutting
// down / in recovery") opens it, and while it is open no connection is attempted: every query fails at once
// with DatabaseUnreachable, which the error mapping answers as 503 CIRCUIT_OPEN (reason database_unavailable,
// Retry-After). Every DB_CIRCUIT_COOLDOWN_MS one connection is tried again; the first that opens closes it.
// The log says "database unavailable" when it opens and "database available again" when it closes, once per
// outage; whatever waited for the database (released idempotency claims, the listener, the senders) is told.
import { CircuitBreaker, type CircuitState } from "./circuit-breaker";
import { env } from "./env";
import { globalSingleton } from "./global-singleton";

export const DATABASE_UNAVAILABLE = "database_unavailable";
/** Retry-After of an answer during an outage: the breaker tries again well within it. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

const FAST_FAIL = "APS_DATABASE_UNAVAILABLE";

/** A query refused at once because the database's breaker is open: no connection was attempted. */
export class DatabaseUnreachable extends Error {
  readonly code = FAST_FAIL;
  constructor(testing: boolean) {
    super(
      testing ? "The database is unavailable (a connection is being tried)." : "The database is unavailable (its circuit breaker is open).",
    );
  }
}

// Node's socket errors of a connection that cannot be made or was cut.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
// Prisma's: can't reach, timed out, connection closed, pool time-out.
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
// @prisma/adapter-pg's kinds of the same.
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
// SQLSTATE class 08 (connection exception); 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now.
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;
// pg's own errors, which carry no code.
const PG_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Can't reach database server)/;

type Inspectable = {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
};

/**
 * Whether `err` (pg's, Prisma's, the driver adapter's, or wrapped in a cause) says the database cannot be reached.
 * A socket error counts only as thrown (pg's own) or inside Prisma's error, never as another error's cause: an
 * outbound fetch that failed (TypeError "fetch failed", cause ECONNREFUSED) is not our database.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0, socketCodes = true): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as Inspectable;
  for (const code of [e.code, e.originalCode]) {
    if (typeof code !== "string") continue;
    if (code === FAST_FAIL || PRISMA_CODES.has(code) || SQLSTATE.test(code) || (socketCodes && SOCKET_CODES.has(code))) return true;
  }
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && PG_MESSAGES.test(e.message.trim())) return true;
  return isDatabaseUnavailable(e.meta?.driverAdapterError?.cause, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1, false);
}

interface Availability {
  breaker: CircuitBreaker;
  openedAt: number;
  waiting: Set<() => void>;
}

// One per process: instrumentation, the proxy and the routes must share one breaker.
function availability(): Availability {
  return globalSingleton("database.availability", newAvailability);
}

function newAvailability(): Availability {
  const state: Availability = {
    openedAt: 0,
    waiting: new Set(),
    breaker: new CircuitBreaker("database", 1, env.DB_CIRCUIT_COOLDOWN_MS, Date.now, {
      refusal: (testing) => new DatabaseUnreachable(testing),
      onOpen: (err) => {
        state.openedAt = Date.now();
        const why = err instanceof Error ? err.message.split("\n")[0].trim() : String(err);
        console.error(`database unavailable (${why}): requests answer 503 CIRCUIT_OPEN until a connection opens again`);
      },
      onClose: () => {
        console.log(`database available again after ${((Date.now() - state.openedAt) / 1000).toFixed(1)} s`);
        for (const wake of state.waiting) {
          try {
            wake();
          } catch (err) {
            console.error("database available again: a waiter failed:", err instanceof Error ? err.message : err);
          }
        }
      },
    }),
  };
  return state;
}

/** Opens a connection through the breaker: refused at once while it is open. */
export function connectThroughBreaker<T>(connect: () => Promise<T>): Promise<T> {
  return availability().breaker.run(connect, isDatabaseUnavailable);
}

/** The breaker's state: "open" (the database was unreachable moments ago; no trial due yet), "half_open" (a trial is due or running), "closed". */
export function databaseState(): CircuitState {
  return availability().breaker.currentState;
}

/** Calls `wake` each time the database is available again after an outage; returns the unsubscribe. */
export function onDatabaseAvailable(wake: () => void): () => void {
  const { waiting } = availability();
  waiting.add(wake);
  return () => void waiting.delete(wake);
}

/** Logs a background failure, except the database being unreachable (said once per outage when the breaker opens). */
export function logUnlessDatabaseDown(what: string, err: unknown): void {
  if (isDatabaseUnavailable(err)) return;
  console.error(what, err instanceof Error ? err.message : err);
}
