// The one request pipeline. Its steps, in order:
//   1. a request id and the response's first headers;
//   2. authentication and rate limit, the one step each composition supplies (see `Authenticate`), with the route's
//      permission (`permission`: what a restricted API key must allow, checked in the same step, before any claim),
//      and the route's own statement when it has one (`statement`: run in the API-key statement, one round trip),
//      or its write (`write`: run there beside the idempotency claim, which is written stored with its answer);
//   3. input: the body (size, JSON, NUL), zod body and query, path ids and the Idempotency-Key. It is read
//      before step 2, so that the idempotency claim can join the authentication statement, and its errors are
//      raised after it: callers see auth -> rate limit -> input errors;
//   4. idempotency: a replay answers with the stored response; a claim is settled with the answer;
//   5. the handler: a mutation in one transaction together with its stored response (an error whose state
//      commits, a decline, is then the answer), a read on the pool;
//   6. error mapping (the error contract, or a protocol's own shape) and the response.
// The compositions: api() (lib/http/api.ts: an API key, or none with the per-IP limit), dashboardApi()
// (lib/dashboard/route.ts: session + Origin + CSRF) and the protocol paths (lib/oauth/public-route.ts,
// lib/paid-sale/sell-paid-resource.ts, lib/a2a/serve-agent.ts, lib/acp/http.ts, lib/mcp/handle.ts,
// lib/integrations/wallet-webhook-route.ts: their own authentication, input and error shapes). A handler sees what it
// declared, never HTTP. A mutation's steps 4 and 5 are idempotentMutation(), which the MCP tools' writes also run.
import type { z } from "zod";
import { DeferredTransaction, getDb, pgTransaction, sql, transaction, type CallerQuery, type CallerWrite, type Db, type Sql } from "../db";
import { env } from "../env";
import { BusyError, InvariantViolation, keepCommittedState, NotFoundError } from "../errors";
import { releaseClaim, settleFailedClaim, storeResponse, type ClaimOutcome } from "../idempotency/claims";
import { createId } from "../ids";
import { parseOrThrow } from "../validation/parse";
import { PATH_ID_PATTERN, rejectNul } from "../validation/text-safety";
import type { Permission } from "../merchants/permissions";
import { retryAfterOf, toErrorResult, type HttpResult } from "./errors";
import { faultAt } from "./fault-injection";
import { claimRequestOf, type ClaimRequest } from "./idempotency-step";
import { limitByClientIp } from "./rate-limit-step";
import { parseJsonBody, readBodyText } from "./read-body";
import { plannedWrite, type RouteQuery } from "./route-write";
import { keepSmallAnswerUncompressed } from "./small-answer";

/** A handler's result with a status other than the route's default. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export type RouteParams = Record<string, string>;

/**
 * What a handler's `tx` is: a Prisma client (the default); raw SQL for hot paths (lib/db.ts); or "pg", a `Db` whose
 * statements (sqlIn, deferWrites) run in a plain pg transaction, for domain functions that make no Prisma call.
 */
export type DbKind = "prisma" | "sql" | "pg";

export type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Authenticated<C> {
  caller: C;
  /** The idempotency claim, when one was requested. */
  claim?: ClaimOutcome;
  /** The row of the route's statement, when one was given. */
  row?: unknown;
  /** A route's write (PipelineOptions.write) ran: its answer for the caller's mode (stored with its claim, if any). */
  answer?: { status: number; bodyText: string };
}

/**
 * Step 2, a composition's own: who calls (or 401/403), a token from their rate-limit bucket (or 429), whether the
 * caller's key allows the route's permission (or 403 permission_denied; API keys only) and, when a claim request
 * is given, the idempotency claim (made in the authentication's own statement where it can be, and never for a
 * request the permission refuses). A route's statement (`route`, see PipelineOptions.statement) is run for the
 * caller, on the same condition, and its row answered; a route's write (PipelineOptions.write: `route` with its
 * planned answer) is run only when the claim, if one was requested, took the key, and its answer returned. Only the
 * API-key step (byApiKey) takes either.
 */
export type Authenticate<C> = (
  req: Request,
  headers: Headers,
  claimRequest?: ClaimRequest,
  permission?: Permission,
  route?: RouteQuery,
  /** The body's text as received, when it was read (what a request signature covers, lib/acp/signing.ts). */
  rawBody?: string,
) => Promise<Authenticated<C>>;

/** A composition: its authentication step, and whether its callers' Idempotency-Keys are claimed. */
export interface Steps<C> {
  authenticate: Authenticate<C>;
  claims: boolean;
  /** Headers of every response (e.g. Cache-Control: no-store). */
  headers?: Record<string, string>;
  /** The error shape of the composition (default: the error contract); it may add headers (say, WWW-Authenticate). */
  errorResult?: (err: unknown, requestId: string, headers: Headers) => HttpResult;
}

/** No credential: a token from the client IP's bucket (the public paths). */
export const byClientIp: Authenticate<undefined> = async (req, headers) => {
  await limitByClientIp(req, headers);
  return { caller: undefined };
};

export interface PipelineOptions<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind> {
  /**
   * What a restricted API key must allow to call this route: [resource, "read" | "write"] (docs/restricted-keys.md).
   * Every route authenticated with an API key declares one (tests/unit/route-permissions.test.ts); a secret key
   * may do everything. A public route declares none.
   */
  permission?: Permission;
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
   * without Prisma's per-call cost. "pg": a `Db` in a plain pg transaction (pgTransaction, lib/db.ts), without
   * Prisma's interactive-transaction machinery, for a handler whose domain functions run statements only (a Prisma
   * call on it throws); a read still gets the Prisma client (the pool).
   */
  db?: D;
  /** Largest accepted body of this route (default BODY_LIMIT_BYTES). */
  bodyLimitBytes?: number;
  /** The handler reads the request itself (a form, a protocol's body): no body, query, path-id or claim step. */
  rawInput?: true;
  /**
   * The route's one statement (a caller statement, lib/db.ts), planned from the checked input before the caller is
   * known; the API-key step runs it inside its own statement, so authentication, rate limit, permission and the
   * route's work are ONE round trip (two with the Redis buckets), and the handler gets its row (`row`). A planner
   * that throws is an input error (after the refusals of step 2). The statement commits on its own, before the
   * handler: a mutating route with one takes `idempotent: false` and `transaction: false` (and recognises its
   * retries itself); a read needs neither (GET /v1/customers/:id).
   */
  statement?: (input: StatementInput<Infer<B>, Infer<Q>>) => CallerQuery<unknown>;
  /**
   * A mutating route's one write, planned whole with its answer from the checked input (lib/http/route-write.ts): the
   * API-key step runs it inside its own statement beside the idempotency claim, which is written already stored with
   * the answer, so authentication, rate limit, permission, claim, write and stored response are ONE round trip (a
   * replay and every refusal too). No handler runs; the answer is `status` with the planned body. A refused, replayed
   * or conflicting request writes nothing; a failed statement writes nothing and claims nothing.
   */
  write?: (input: StatementInput<Infer<B>, Infer<Q>>) => CallerWrite;
}

/** What a route's statement is planned from. */
export interface StatementInput<B, Q> {
  body: B;
  query: Q;
  params: RouteParams;
  req: Request;
}

export interface PipelineContext<C, B, Q, D extends DbKind = "prisma"> {
  /** The transaction of a mutating request, or the pool for reads. */
  tx: D extends "sql" ? Sql : Db;
  caller: C;
  body: B;
  /** The body's text as received (what a signature's content-digest covers); undefined for GET or rawInput. */
  rawBody: string | undefined;
  query: Q;
  params: RouteParams;
  req: Request;
  /** The response's headers so far (a handler answering with its own Response may start from them). */
  headers: Headers;
  /** The row of the route's statement (PipelineOptions.statement); undefined without one. */
  row: unknown;
}

type NextContext = { params: Promise<RouteParams> };

export const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The request's input, read and checked before the first statement. */
interface Input<B, Q> {
  body: B;
  /** The body's text as received (what a signature's content-digest covers); undefined for GET or rawInput. */
  rawBody?: string;
  query: Q;
  params: RouteParams;
  claimRequest?: ClaimRequest;
}

/**
 * A route handler made of the steps above. A handler returns its result (a Reply for another status) or, where
 * nothing is stored for replay, a Response of its own (a download, a protocol's answer), which gets the pipeline's
 * headers it does not set itself.
 */
export function pipeline<C, B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind>(
  steps: Steps<C>,
  options: PipelineOptions<B, Q, D>,
  handler: (ctx: PipelineContext<C, Infer<B>, Infer<Q>, D>) => unknown,
) {
  type Context = PipelineContext<C, Infer<B>, Infer<Q>, D>;
  const errorResult = steps.errorResult ?? toErrorResult;
  // A read (GET) claims nothing and opens no transaction: its statement needs neither option.
  const statementFits = options.idempotent === false && options.transaction === false;
  if (options.write && (options.statement || options.rawInput))
    throw new InvariantViolation("A route's write takes neither a statement of its own nor rawInput.");
  return async (req: Request, nextContext?: NextContext): Promise<Response> => {
    const requestId = createId("request");
    const headers = new Headers({ "Request-Id": requestId, ...steps.headers });
    let claimId: string | null = null;
    try {
      const mutating = MUTATING.has(req.method);
      if (options.statement && mutating && !statementFits)
        throw new InvariantViolation("A mutating route with a statement of its own takes idempotent: false and transaction: false.");
      if (options.write && !mutating) throw new InvariantViolation("A route's write is a mutation's.");
      let input: Input<Infer<B>, Infer<Q>> | undefined;
      let inputError: unknown;
      let statement: RouteQuery | undefined;
      // Kept when a later input check fails: a signature over the request is still checked (authentication first).
      let rawBody: string | undefined;
      try {
        const claimable = mutating && steps.claims && options.idempotent !== false && !options.rawInput;
        let read: Input<Infer<B>, Infer<Q>>;
        if (options.rawInput) read = await rawInput<Infer<B>, Infer<Q>>(nextContext);
        else {
          if (mutating) rawBody = await readBodyText(req, options.bodyLimitBytes ?? env.BODY_LIMIT_BYTES);
          read = await readInput(req, rawBody, nextContext, claimable, options);
        }
        const planned = { body: read.body, query: read.query, params: read.params, req };
        statement = options.write
          ? plannedWrite(options.write(planned), options.status ?? 200, options.secretInResponse)
          : options.statement?.(planned);
        input = read;
      } catch (err) {
        inputError = err;
      }
      const authenticated = await steps.authenticate(req, headers, input?.claimRequest, options.permission, statement, rawBody);
      if (statement && authenticated.row === undefined && authenticated.claim?.kind !== "replay" && !authenticated.answer)
        throw new InvariantViolation("This composition's authentication does not run a route's statement.");
      if (authenticated.claim?.kind === "replay") {
        headers.set("Idempotent-Replayed", "true");
        return respondText(authenticated.claim.status, authenticated.claim.bodyText, headers);
      }
      if (authenticated.answer) return respondText(authenticated.answer.status, authenticated.answer.bodyText, headers);
      claimId = authenticated.claim?.claimId ?? null;
      if (!input) throw inputError;

      const context = {
        caller: authenticated.caller,
        body: input.body,
        rawBody: input.rawBody,
        query: input.query,
        params: input.params,
        req,
        headers,
        row: authenticated.row,
      };
      if (!mutating || options.transaction === false) {
        const pool = (options.db === "sql" ? sql() : getDb()) as Context["tx"];
        const value = await handler({ ...context, tx: pool } as Context);
        if (value instanceof Response) {
          if (claimId) throw new InvariantViolation("A Response of its own cannot be stored for an idempotent replay.");
          return withHeaders(value, headers);
        }
        const result = toResult(value, options.status);
        if (!claimId) return respond(result, headers);
        const bodyText = JSON.stringify(result.body);
        await storeResponse(sql(), claimId, result.status, bodyText, options.secretInResponse);
        return respondText(result.status, bodyText, headers);
      }

      claimId = null; // the mutation settles its own claim
      const settled = await idempotentMutation<Context["tx"]>({
        req,
        claim: authenticated.claim,
        status: options.status,
        seal: options.secretInResponse,
        db: options.db,
        errorResult: (err) => errorResult(err, requestId, headers),
        work: (tx) => handler({ ...context, tx } as Context),
      });
      if (settled.ok) return respondText(settled.status, settled.bodyText, headers);
      return errorResponse(settled.error, settled.result, headers);
    } catch (err) {
      const result = errorResult(err, requestId, headers);
      if (claimId) await settleClaimOnError(claimId, err, result);
      return errorResponse(err, result, headers);
    }
  };
}

function errorResponse(err: unknown, result: HttpResult, headers: Headers): Response {
  const retryAfter = retryAfterOf(err);
  if (retryAfter !== null) headers.set("Retry-After", String(retryAfter));
  return respond(result, headers);
}

/** A mutation's work, its idempotency claim (made by the caller's authentication, or none) and its answers' shape. */
export interface MutationRequest<T> {
  /** The request (test fault injection reads its header), when there is one. */
  req?: Request;
  claim?: ClaimOutcome;
  /** Status of a successful result (default 200). */
  status?: number;
  /** The stored response is sealed (it carries a secret). */
  seal?: boolean;
  db?: DbKind;
  /** The composition's error shape: a decline's answer, and what a failed claim is settled with. */
  errorResult: (err: unknown) => HttpResult;
  work: (tx: T) => unknown;
}

/** What a mutation came to: its response as sent and stored (or replayed), or the error its claim was settled with. */
export type MutationOutcome = ({ ok: true; replayed: boolean } & Settled) | { ok: false; error: unknown; result: HttpResult };

/**
 * Steps 4 and 5 of a mutation, the one implementation of an idempotent write: a replay answers with the stored
 * response; otherwise the work and its stored response run in one transaction (an error whose state commits is
 * then the answer), and a failure settles the claim (frees it after a BusyError). api() and every composition run
 * their mutations here, and so do the MCP tools (lib/mcp/tools.ts), whose claim is made inside the tool call.
 */
export async function idempotentMutation<T>(m: MutationRequest<T>): Promise<MutationOutcome> {
  if (m.claim?.kind === "replay") return { ok: true, replayed: true, status: m.claim.status, bodyText: m.claim.bodyText };
  const claimId = m.claim?.claimId ?? null;
  const mutation: Mutation = { req: m.req, claimId, status: m.status, seal: m.seal, errorResult: m.errorResult };
  const work = m.work as (tx: Db | Sql) => unknown;
  try {
    const settled =
      m.db === "sql" ? await runOnSql(work, mutation) : await runInTransaction(m.db === "pg" ? pgTransaction : transaction, work, mutation);
    return { ok: true, replayed: false, ...settled };
  } catch (err) {
    const result = m.errorResult(err);
    if (claimId) await settleClaimOnError(claimId, err, result);
    return { ok: false, error: err, result };
  }
}

/** A failed request's claim: freed when the conflict passes by itself (BusyError), else settled with the error. */
async function settleClaimOnError(claimId: string, err: unknown, result: HttpResult): Promise<void> {
  if (err instanceof BusyError) await releaseClaim(claimId).catch(() => undefined);
  else await settleFailedClaim(claimId, result.status, result.body);
}

interface Mutation {
  req?: Request;
  claimId: string | null;
  status?: number;
  seal?: boolean;
  errorResult: (err: unknown) => HttpResult;
}

/** The response as sent and stored: status and JSON text. */
interface Settled {
  status: number;
  bodyText: string;
}

/** A `Db` handler: the work and its stored response in one transaction (Prisma's interactive one, or pgTransaction). */
function runInTransaction(open: typeof transaction, work: (tx: Db) => unknown, m: Mutation): Promise<Settled> {
  return open(async (tx) => {
    const outcome = await outcomeOf(async () => work(tx), m.errorResult, m.status);
    faultAt(m.req, "after-handler");
    const bodyText = JSON.stringify(outcome.body);
    if (m.claimId) await storeResponse(tx, m.claimId, outcome.status, bodyText, m.seal);
    return { status: outcome.status, bodyText };
  });
}

/** A raw-SQL handler, in a transaction that begins with its first statement (none if the handler wrote nothing). */
async function runOnSql(work: (tx: Sql) => unknown, m: Mutation): Promise<Settled> {
  const tx = new DeferredTransaction();
  try {
    const outcome = await outcomeOf(async () => work(tx), m.errorResult, m.status);
    faultAt(m.req, "after-handler");
    const bodyText = JSON.stringify(outcome.body);
    if (m.claimId) await storeResponse(tx.current(), m.claimId, outcome.status, bodyText, m.seal);
    await tx.commit();
    return { status: outcome.status, bodyText };
  } catch (err) {
    await tx.rollback();
    throw err;
  }
}

/** The handler's result, or (in the composition's error shape) the error it threw when that error's state commits (a decline). */
async function outcomeOf(
  run: () => Promise<unknown>,
  errorResult: (err: unknown) => HttpResult,
  defaultStatus?: number,
): Promise<HttpResult> {
  const settled = await keepCommittedState(run);
  return settled.ok ? toResult(settled.value, defaultStatus) : errorResult(settled.error);
}

/** Body (JSON, schema; its text read already), query, path ids and the idempotency claim to make; throws the first problem. */
async function readInput<B extends z.ZodType | undefined, Q extends z.ZodType | undefined>(
  req: Request,
  rawBody: string | undefined,
  nextContext: NextContext | undefined,
  claimable: boolean,
  options: { body?: B; query?: Q },
): Promise<Input<Infer<B>, Infer<Q>>> {
  const parsedBody = rawBody === undefined ? undefined : parseJsonBody(rawBody);
  rejectNul(parsedBody, "request body");
  const body = (options.body ? parseOrThrow(options.body, parsedBody) : undefined) as Infer<B>;
  const url = new URL(req.url);
  const rawQuery = Object.fromEntries(url.searchParams);
  rejectNul(rawQuery, "query");
  const query = (options.query ? parseOrThrow(options.query, rawQuery, "query") : undefined) as Infer<Q>;
  const params = await routeParams(nextContext);
  const claimRequest = claimable ? claimRequestOf(req, url.pathname, parsedBody) : undefined;
  return { body, rawBody, query, params, claimRequest };
}

/** The route's params as they are: the handler reads and checks its input itself. */
async function rawInput<B, Q>(nextContext: NextContext | undefined): Promise<Input<B, Q>> {
  return { body: undefined as B, query: undefined as Q, params: (await nextContext?.params) ?? {} };
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

/** A handler's own Response, with the pipeline's headers it does not set itself. */
function withHeaders(response: Response, headers: Headers): Response {
  headers.forEach((value, name) => {
    if (!response.headers.has(name)) response.headers.set(name, value);
  });
  return response;
}

function respond(result: HttpResult, headers: Headers): Response {
  return respondText(result.status, JSON.stringify(result.body), headers, result.contentType);
}

function respondText(status: number, json: string, headers: Headers, contentType = "application/json"): Response {
  headers.set("Content-Type", contentType);
  keepSmallAnswerUncompressed(headers, json);
  return new Response(json, { status, headers });
}
