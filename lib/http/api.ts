// The api() wrapper every /v1 route is made with. It composes small steps in a fixed order:
// auth -> rate limit -> body (size, JSON) -> validation -> idempotency -> handler in a transaction.
// A domain handler sees only what it declared, and never HTTP.
import type { z } from "zod";
import { DeferredTransaction, getDb, sql, SqlWrite, transaction, type Db, type Sql } from "../db";
import { env } from "../env";
import { BusyError, DomainError, NotFoundError } from "../errors";
import { createId } from "../ids";
import { releaseClaim, settleFailedClaim, storeResponse, writeAndStoreResponse } from "../idempotency/claims";
import { parseOrThrow } from "../validation/parse";
import { PATH_ID_PATTERN, rejectNul } from "../validation/text-safety";
import { authenticateAndLimit, type ClaimRequest, type Principal } from "./authenticate";
import { clientIpKey } from "./client-ip";
import { toErrorResult, type HttpResult } from "./errors";
import { faultAt } from "./fault-injection";
import { claimRequestOf } from "./idempotency-step";
import { enforceRateLimit } from "./rate-limit-step";
import { readJsonBody } from "./read-body";

/** A handler's result with a status other than the route's default. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

type RouteParams = Record<string, string>;

/** What a handler's `tx` is: a Prisma client (the default), or raw SQL for hot paths (lib/db.ts). */
type DbKind = "prisma" | "sql";

interface Options<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind> {
  /** "secret": Bearer API key, limited per key. "public": no credential, limited per client IP. */
  auth: "secret" | "public";
  body?: B;
  query?: Q;
  /** Status of a successful result (default 200). */
  status?: number;
  /** The response carries a secret: its stored idempotent copy is encrypted at rest. */
  secretInResponse?: boolean;
  /**
   * false: no generic Idempotency-Key record; the route's own domain function makes its retries safe
   * (e.g. a unique key in its own table) and reads the header itself.
   */
  idempotent?: false;
  /**
   * false: the handler gets the pool and opens its own transactions (or needs none: one atomic
   * statement). A generic Idempotency-Key record is then stored after the handler, in a statement of
   * its own: a process that dies in between leaves the key in flight until its lock expires, and the
   * retry runs the handler again, so such a handler must itself be safe to run again (e.g. it finds
   * its own earlier work by a request key, as meter funding does).
   */
  transaction?: false;
  /**
   * "sql": the handler gets raw SQL (`Sql`) in a plain pg transaction that begins with its first statement,
   * without Prisma's per-call cost; a handler may return an SqlWrite (its one write, planned with its
   * result), which then shares one statement with the stored idempotent response.
   */
  db?: D;
  /** Largest accepted body of this route (default BODY_LIMIT_BYTES). */
  bodyLimitBytes?: number;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<B, Q, P extends "secret" | "public", D extends DbKind = "prisma"> {
  /** The transaction of a mutating request, or the pool for reads. */
  tx: D extends "sql" ? Sql : Db;
  principal: P extends "secret" ? Principal : undefined;
  body: B;
  query: Q;
  params: RouteParams;
  req: Request;
}

type NextContext = { params: Promise<RouteParams> };

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The request's input, read and checked before the first statement. */
interface Input<B, Q> {
  body: B;
  query: Q;
  params: RouteParams;
  claimRequest?: ClaimRequest;
}

export function api<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends "secret" | "public" = "secret",
  D extends DbKind = "prisma",
>(options: Options<B, Q, D> & { auth: P }, handler: (ctx: HandlerContext<Infer<B>, Infer<Q>, P, D>) => unknown) {
  type Context = HandlerContext<Infer<B>, Infer<Q>, P, D>;
  return async (req: Request, nextContext?: NextContext): Promise<Response> => {
    const requestId = createId("request");
    const headers = new Headers({ "Request-Id": requestId });
    let claimId: string | null = null;
    try {
      const mutating = MUTATING.has(req.method);
      // Input is checked before the first statement, so that the idempotency claim can join it; its errors
      // are raised after authentication and the rate limit, the order of the steps callers see.
      let input: Input<Infer<B>, Infer<Q>> | undefined;
      let inputError: unknown;
      try {
        input = await readInput(req, nextContext, mutating && options.auth === "secret" && options.idempotent !== false, options);
      } catch (err) {
        inputError = err;
      }
      let principal: Principal | undefined;
      if (options.auth === "secret") {
        const authenticated = await authenticateAndLimit(req, headers, input?.claimRequest);
        principal = authenticated.principal;
        if (authenticated.claim?.kind === "replay") {
          headers.set("Idempotent-Replayed", "true");
          return respondText(authenticated.claim.status, authenticated.claim.bodyText, headers);
        }
        claimId = authenticated.claim?.claimId ?? null;
      } else {
        await enforceRateLimit(`ip:${clientIpKey(req)}`, headers);
      }
      if (!input) throw inputError;

      const context = { principal, body: input.body, query: input.query, params: input.params, req } as Omit<Context, "tx">;
      if (!mutating || options.transaction === false) {
        const pool = (options.db === "sql" ? sql() : getDb()) as Context["tx"];
        const value = await handler({ ...context, tx: pool } as Context);
        const result = toResult(value instanceof SqlWrite ? await value.run(sql()) : value, options.status);
        if (!claimId) return respond(result, headers);
        const bodyText = JSON.stringify(result.body);
        await storeResponse(sql(), claimId, result.status, bodyText, options.secretInResponse);
        return respondText(result.status, bodyText, headers);
      }

      const mutation = { req, requestId, claimId, status: options.status, seal: options.secretInResponse };
      const work = (tx: Db | Sql) => handler({ ...context, tx } as Context);
      const result = options.db === "sql" ? await runOnSql(work, mutation) : await runOnPrisma(work, mutation);
      return respondText(result.status, result.bodyText, headers);
    } catch (err) {
      const result = toErrorResult(err, requestId);
      if (claimId)
        await (err instanceof BusyError
          ? releaseClaim(claimId).catch(() => undefined)
          : settleFailedClaim(claimId, result.status, result.body));
      return respond(result, headers);
    }
  };
}

interface Mutation {
  req: Request;
  requestId: string;
  claimId: string | null;
  status?: number;
  seal?: boolean;
}

/** The response as sent and stored: status and JSON text. */
interface Settled {
  status: number;
  bodyText: string;
}

/** A Prisma handler: the work and its stored response in one interactive transaction. */
function runOnPrisma(work: (tx: Db) => unknown, m: Mutation): Promise<Settled> {
  return transaction(async (tx) => {
    const outcome = await outcomeOf(() => work(tx), m);
    faultAt(m.req, "after-handler");
    const bodyText = JSON.stringify(outcome.body);
    if (m.claimId) await storeResponse(tx, m.claimId, outcome.status, bodyText, m.seal);
    return { status: outcome.status, bodyText };
  });
}

/**
 * A raw-SQL handler, in a transaction that begins with its first statement. A planned write (SqlWrite)
 * runs last, in the same statement as the stored response: a create that reads nothing costs one round trip.
 */
async function runOnSql(work: (tx: Sql) => unknown, m: Mutation): Promise<Settled> {
  const tx = new DeferredTransaction();
  try {
    let write: SqlWrite | undefined;
    const outcome = await outcomeOf(async () => {
      const value = await work(tx);
      if (!(value instanceof SqlWrite)) return value;
      write = value;
      return value.result;
    }, m);
    faultAt(m.req, "after-handler");
    const bodyText = JSON.stringify(outcome.body);
    const db = tx.current();
    if (write && m.claimId) await writeAndStoreResponse(db, write, m.claimId, outcome.status, bodyText, m.seal);
    else {
      await write?.run(db);
      if (m.claimId) await storeResponse(db, m.claimId, outcome.status, bodyText, m.seal);
    }
    await tx.commit();
    return { status: outcome.status, bodyText };
  } catch (err) {
    await tx.rollback();
    throw err;
  }
}

/** The handler's result, or the error it threw when that error's state commits (a decline and the like). */
async function outcomeOf(run: () => unknown, m: Mutation): Promise<HttpResult> {
  try {
    return toResult(await run(), m.status);
  } catch (err) {
    if (!(err instanceof DomainError && err.commitsState)) throw err;
    return toErrorResult(err, m.requestId);
  }
}

/** Body (size, JSON, schema), query, path ids and the idempotency claim to make; throws the first problem. */
async function readInput<B extends z.ZodType | undefined, Q extends z.ZodType | undefined>(
  req: Request,
  nextContext: NextContext | undefined,
  claimable: boolean,
  options: { body?: B; query?: Q; bodyLimitBytes?: number },
): Promise<Input<Infer<B>, Infer<Q>>> {
  const mutating = MUTATING.has(req.method);
  const rawBody = mutating ? await readJsonBody(req, options.bodyLimitBytes ?? env.BODY_LIMIT_BYTES) : undefined;
  rejectNul(rawBody, "request body");
  const body = (options.body ? parseOrThrow(options.body, rawBody) : undefined) as Infer<B>;
  const url = new URL(req.url);
  const rawQuery = Object.fromEntries(url.searchParams);
  rejectNul(rawQuery, "query");
  const query = (options.query ? parseOrThrow(options.query, rawQuery, "query") : undefined) as Infer<Q>;
  const params = await routeParams(nextContext);
  const claimRequest = claimable ? claimRequestOf(req, url.pathname, rawBody) : undefined;
  return { body, query, params, claimRequest };
}

/** Path ids that could not name any object are a 404 before any query runs. */
async function routeParams(nextContext?: NextContext): Promise<RouteParams> {
  const params = (await nextContext?.params) ?? {};
  for (const value of Object.values(params)) {
    if (!PATH_ID_PATTERN.test(value)) throw new NotFoundError("object", undefined);
  }
  return params;
}

function toResult(value: unknown, defaultStatus = 200): HttpResult {
  return value instanceof Reply ? { status: value.status, body: value.body } : { status: defaultStatus, body: value };
}

function respond(result: HttpResult, headers: Headers): Response {
  return respondText(result.status, JSON.stringify(result.body), headers);
}

function respondText(status: number, json: string, headers: Headers): Response {
  headers.set("Content-Type", "application/json");
  return new Response(json, { status, headers });
}
