// api(): the wrapper every /v1 route (and every public JSON document) is made with, the request pipeline
// (lib/http/pipeline.ts) composed with one of two authentication steps:
//   "secret": a Bearer API key, limited per key, with the idempotency claim in the same statement (authenticate.ts);
//   "public": no credential, limited per client IP, no idempotency record.
import type { z } from "zod";
import type { Db, Sql } from "../db";
import type { Caller } from "../scope";
import { byApiKey } from "./authenticate";
import { byClientIp, pipeline, type DbKind, type Infer, type PipelineOptions, type RouteParams, type Steps } from "./pipeline";

export { Reply } from "./pipeline";

type Auth = "secret" | "public";

interface Options<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, D extends DbKind> extends PipelineOptions<B, Q, D> {
  /** "secret": Bearer API key, limited per key. "public": no credential, limited per client IP. */
  auth: Auth;
}

export interface HandlerContext<B, Q, P extends Auth, D extends DbKind = "prisma"> {
  /** The transaction of a mutating request, or the pool for reads. */
  tx: D extends "sql" ? Sql : Db;
  principal: P extends "secret" ? Caller : undefined;
  body: B;
  query: Q;
  params: RouteParams;
  req: Request;
  /** The response's headers so far (a handler may add one, e.g. Retry-After before it throws a 429). */
  headers: Headers;
}

const WITH_API_KEY: Steps<Caller> = { authenticate: byApiKey, claims: true };
const PUBLIC: Steps<undefined> = { authenticate: byClientIp, claims: false };

export function api<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends Auth = "secret",
  D extends DbKind = "prisma",
>(options: Options<B, Q, D> & { auth: P }, handler: (ctx: HandlerContext<Infer<B>, Infer<Q>, P, D>) => unknown) {
  type Context = HandlerContext<Infer<B>, Infer<Q>, P, D>;
  const steps = (options.auth === "secret" ? WITH_API_KEY : PUBLIC) as Steps<Context["principal"]>;
  return pipeline(steps, options, ({ tx, caller, body, query, params, req, headers }) =>
    handler({ tx, principal: caller, body, query, params, req, headers } as Context),
  );
}
