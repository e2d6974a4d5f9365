// The api() wrapper every /v1 route is made with. It composes small steps in a fixed order:
// auth -> rate limit -> body (size, JSON) -> validation -> idempotency -> handler in a transaction.
// A domain handler sees only what it declared, and never HTTP.
import type { z } from "zod";
import { getDb, transaction, type Db } from "../db";
import { env } from "../env";
import { DomainError, NotFoundError } from "../errors";
import { createId } from "../ids";
import { releaseClaim, storeResponse } from "../idempotency/claims";
import { parseOrThrow } from "../validation/parse";
import { PATH_ID_PATTERN, rejectNul } from "../validation/text-safety";
import { authenticateAndLimit, type Principal } from "./authenticate";
import { clientIp } from "./client-ip";
import { toErrorResult, type HttpResult } from "./errors";
import { faultAt } from "./fault-injection";
import { claimIdempotencyKey, idempotencyKeyOf } from "./idempotency-step";
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

interface Options<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
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
   * statement). Only with `idempotent: false` (a generic record is stored in the handler's transaction).
   */
  transaction?: false;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<B, Q, P extends "secret" | "public"> {
  /** The transaction of a mutating request, or the pool for reads. */
  tx: Db;
  principal: P extends "secret" ? Principal : undefined;
  body: B;
  query: Q;
  params: RouteParams;
  req: Request;
}

type NextContext = { params: Promise<RouteParams> };

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function api<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, P extends "secret" | "public" = "secret">(
  options: Options<B, Q> & { auth: P },
  handler: (ctx: HandlerContext<Infer<B>, Infer<Q>, P>) => Promise<unknown>,
) {
  if (options.transaction === false && options.idempotent !== false) throw new Error("api(): transaction: false needs idempotent: false");
  return async (req: Request, nextContext?: NextContext): Promise<Response> => {
    const requestId = createId("request");
    const headers = new Headers({ "Request-Id": requestId });
    let claimId: string | null = null;
    try {
      const db = getDb();
      const principal = options.auth === "secret" ? await authenticateAndLimit(db, req, headers) : undefined;
      if (!principal) await enforceRateLimit(`ip:${clientIp(req)}`, headers);

      const mutating = MUTATING.has(req.method);
      const rawBody = mutating ? await readJsonBody(req, env.BODY_LIMIT_BYTES) : undefined;
      rejectNul(rawBody, "request body");
      const body = (options.body ? parseOrThrow(options.body, rawBody) : undefined) as Infer<B>;
      const rawQuery = Object.fromEntries(new URL(req.url).searchParams);
      rejectNul(rawQuery, "query");
      const query = (options.query ? parseOrThrow(options.query, rawQuery, "query") : undefined) as Infer<Q>;
      const params = await routeParams(nextContext);

      const idempotencyKey = mutating && principal && options.idempotent !== false ? idempotencyKeyOf(req) : null;
      if (idempotencyKey && principal) {
        const outcome = await claimIdempotencyKey(db, req, principal, idempotencyKey, rawBody);
        if (outcome.kind === "replay") {
          headers.set("Idempotent-Replayed", "true");
          return respondText(outcome.status, outcome.bodyText, headers);
        }
        claimId = outcome.claimId;
      }

      const context = { principal, body, query, params, req } as Omit<HandlerContext<Infer<B>, Infer<Q>, P>, "tx">;
      if (!mutating || options.transaction === false) return respond(toResult(await handler({ ...context, tx: db }), options.status), headers);

      const result = await transaction(async (tx) => {
        let outcome: HttpResult;
        try {
          outcome = toResult(await handler({ ...context, tx }), options.status);
        } catch (err) {
          // A decline and the like: the state it wrote commits, and the error is the stored result.
          if (!(err instanceof DomainError && err.commitsState)) throw err;
          outcome = toErrorResult(err, requestId);
        }
        faultAt(req, "after-handler");
        if (claimId) await storeResponse(tx, claimId, outcome.status, outcome.body, options.secretInResponse);
        return outcome;
      });
      return respond(result, headers);
    } catch (err) {
      const result = toErrorResult(err, requestId);
      if (claimId) await settleFailedClaim(claimId, result);
      return respond(result, headers);
    }
  };
}

/** Path ids that could not name any object are a 404 before any query runs. */
async function routeParams(nextContext?: NextContext): Promise<RouteParams> {
  const params = (await nextContext?.params) ?? {};
  for (const value of Object.values(params)) {
    if (!PATH_ID_PATTERN.test(value)) throw new NotFoundError("object", undefined);
  }
  return params;
}

/** A 4xx is the request's final answer and is stored for replay; a 5xx releases the key for a fresh retry. */
async function settleFailedClaim(claimId: string, result: HttpResult): Promise<void> {
  try {
    if (result.status >= 500) await releaseClaim(getDb(), claimId);
    else await storeResponse(getDb(), claimId, result.status, result.body);
  } catch (err) {
    // The claim expires on its own after IDEMPOTENCY_LOCK_SECONDS; nothing more to do here.
    console.error("could not settle an idempotency claim:", err instanceof Error ? err.message : err);
  }
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
