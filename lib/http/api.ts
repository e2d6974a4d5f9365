// api(): the wrapper every /v1 route (and every public JSON document) is made with, the request pipeline
// (lib/http/pipeline.ts) composed with one of two authentication steps:
//   "secret": a Bearer API key, limited per key, with the idempotency claim in the same statement (authenticate.ts);
//   "public": no credential, limited per client IP, no idempotency record.
// A route whose work is one statement may hand it over too, `api(operation, { statement }, handler)`: it runs inside
// the API-key statement, and the handler answers from its row (the paywall's verify and redemptions: one round trip).
import type { z } from "zod";
import type { CallerQuery, Db, Sql } from "../db";
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
export function api<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind, R>(
  options: Options<B, Q, D>,
  routeOrHandler: RouteStatement<Infer<B>, Infer<Q>, R> | Handler<B, Q, D, R>,
  handlerAfterRoute?: Handler<B, Q, D, R>,
) {
  const [route, handler] = handlerAfterRoute
    ? [routeOrHandler as RouteStatement<Infer<B>, Infer<Q>, R>, handlerAfterRoute]
    : [undefined, routeOrHandler as Handler<B, Q, D, R>];
  const steps = (options.auth === "secret" ? WITH_API_KEY : PUBLIC) as Steps<Caller | undefined>;
  return pipeline(steps, { ...options, statement: route?.statement }, ({ tx, caller, body, rawBody, query, params, req, headers, row }) =>
    handler({ tx, principal: caller, body, rawBody, query, params, req, headers, row } as HandlerContext<Infer<B>, Infer<Q>, Auth, D, R>),
  );
}

type Handler<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind, R> = (
  ctx: HandlerContext<Infer<B>, Infer<Q>, Auth, D, R>,
) => unknown;
