// api(): the wrapper every /v1 route (and every public JSON document) is made with, the request pipeline
// (lib/http/pipeline.ts) composed with one of two authentication steps:
//   "secret": a Bearer API key, limited per key, with the idempotency claim in the same statement (authenticate.ts);
//   "public": no credential, limited per client IP, no idempotency record.
// A route whose work is one statement may hand it over too, `api(operation, { statement }, handler)`: it runs inside
// the API-key statement, and the handler answers from its row (the paywall's verify and redemptions: one round trip).
// A create whose work is one write may hand over the write with its answer, `api(operation, { write })`: it runs there
// too, beside the idempotency claim, with no handler (POST /v1/customers: one round trip; lib/http/route-write.ts).
import type { z } from "zod";
import type { CallerQuery, CallerWrite, Db, Sql } from "../db";
import { InvariantViolation } from "../errors";
import type { Caller } from "../scope";
import { byApiKey } from "./authenticate";
import {
  byClientIp,
  pipeline,
  type DbKind,
  type Infer,
  type PipelineOptions,
  type RouteParams,
  type StatementInput,
  type Steps,
} from "./pipeline";

export { Reply } from "./pipeline";

type Auth = "secret" | "public";

interface Options<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind> extends PipelineOptions<B, Q, D> {
  /** "secret": Bearer API key, limited per key. "public": no credential, limited per client IP. */
  auth: Auth;
}

/** A route's own statement, planned from its input (PipelineOptions.statement); R is its row. */
export interface RouteStatement<B, Q, R> {
  statement: (input: StatementInput<B, Q>) => CallerQuery<R>;
}

/** A route's write planned with its answer from its input (PipelineOptions.write): the route has no handler. */
export interface RouteCreate<B, Q> {
  write: (input: StatementInput<B, Q>) => CallerWrite;
}

export interface HandlerContext<B, Q, P extends Auth, D extends DbKind = "prisma", R = unknown> {
  /** The transaction of a mutating request, or the pool for reads. */
  tx: D extends "sql" ? Sql : Db;
  principal: P extends "secret" ? Caller : undefined;
  body: B;
  /** The body's text as received (what a signature's content-digest covers); undefined for GET. */
  rawBody: string | undefined;
  query: Q;
  params: RouteParams;
  req: Request;
  /** The response's headers so far (a handler may add one, e.g. Retry-After before it throws a 429). */
  headers: Headers;
  /** The row of the route's statement (RouteStatement), run with the authentication. */
  row: R;
}

const WITH_API_KEY: Steps<Caller> = { authenticate: byApiKey, claims: true };
const PUBLIC: Steps<undefined> = { authenticate: byClientIp, claims: false };

export function api<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends Auth = "secret",
  D extends DbKind = "prisma",
>(
  options: Options<B, Q, D> & { auth: P },
  handler: (ctx: HandlerContext<Infer<B>, Infer<Q>, P, D>) => unknown,
): ReturnType<typeof pipeline>;
export function api<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind, R>(
  options: Options<B, Q, D> & { auth: "secret" },
  route: RouteStatement<Infer<B>, Infer<Q>, R>,
  handler: (ctx: HandlerContext<Infer<B>, Infer<Q>, "secret", D, R>) => unknown,
): ReturnType<typeof pipeline>;
export function api<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind>(
  options: Options<B, Q, D> & { auth: "secret" },
  route: RouteCreate<Infer<B>, Infer<Q>>,
): ReturnType<typeof pipeline>;
export function api<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind, R>(
  options: Options<B, Q, D>,
  routeOrHandler: RouteStatement<Infer<B>, Infer<Q>, R> | RouteCreate<Infer<B>, Infer<Q>> | Handler<B, Q, D, R>,
  handlerAfterRoute?: Handler<B, Q, D, R>,
) {
  const route = typeof routeOrHandler === "function" ? undefined : routeOrHandler;
  const handler = typeof routeOrHandler === "function" ? routeOrHandler : (handlerAfterRoute ?? noHandler);
  const steps = (options.auth === "secret" ? WITH_API_KEY : PUBLIC) as Steps<Caller | undefined>;
  const own = route && "write" in route ? { write: route.write } : { statement: route?.statement };
  return pipeline(steps, { ...options, ...own }, ({ tx, caller, body, rawBody, query, params, req, headers, row }) =>
    handler({ tx, principal: caller, body, rawBody, query, params, req, headers, row } as HandlerContext<Infer<B>, Infer<Q>, Auth, D, R>),
  );
}

/** The handler of a route whose write answers (the pipeline never calls it). */
function noHandler(): never {
  throw new InvariantViolation("A route's write has no handler.");
}

type Handler<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind, R> = (
  ctx: HandlerContext<Infer<B>, Infer<Q>, Auth, D, R>,
) => unknown;
