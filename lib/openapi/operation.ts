// An operation's metadata, written once beside its route (`app/<path>/operations.ts`, one export per method) and
// read twice: the route passes it to api() as its options (auth, permission, body, query, status, ...), and the
// OpenAPI document (document.ts) describes the route from the very same object, so the two cannot disagree.
// Paths served by another composition (ACP, A2A, MCP, OAuth, x402's resources, ...) describe themselves with
// documented(): the same fields, their own kind of credential, and no api() options.
import type { z } from "zod";
import type { DbKind, PipelineOptions } from "../http/pipeline";
import type { Permission } from "../merchants/permissions";

/** An answer that is a stream of server-sent events, not JSON. */
export const EVENT_STREAM = "text/event-stream";

/** A success answer: a named zod schema (`.meta({ id })`), the event stream, or a protocol's own body (words only). */
export type SuccessResponse = z.ZodType | typeof EVENT_STREAM | { description: string; contentType?: string };

/**
 * Who may call: "secret" (a Bearer API key), "public" (no credential, limited per client IP), or a protocol's own
 * credential, described in words: the payment itself (x402, MPP), a signature, an OAuth token or API key (/mcp).
 */
export type OperationAuth =
  "secret" | "public" | { kind: "signature" | "payment" | "oauth"; description: string; /** the header that carries it */ header?: string };

/**
 * The SDK method generated for the operation:
 * `client.<resource>.<method>(...path ids, params?, options?)`. What the generator cannot tell from the operation
 * is said here, so the SDK's public signatures stay as they were written.
 */
export interface SdkMethod {
  resource: string;
  method: string;
  /** The path ids' parameter names, in path order (default: `<resource in the singular>Id`). */
  ids?: string;
  /** The parameters after the ids, as declared (default: `params: T.<bodyName>` when the body is named; "" for none). */
  params?: string;
  /** The body sent (default: `params` when there are params, `{}` for a POST without, none for GET and DELETE). */
  body?: string;
  /** The answer's type (default: `T.<its component>`, a list as `T.List<T.<item>>`). */
  returns?: string;
  doc?: string;
}

export interface OperationDoc {
  operationId: string;
  summary: string;
  tag: string;
  /** Success answers by status; every error status answers the composition's error body. */
  responses: Record<number, SuccessResponse>;
  /** Names the request body as a component of the document. */
  bodyName?: string;
  /** Its SDK method(s): every /v1 operation with an API key has one. */
  sdk?: SdkMethod | SdkMethod[];
  /** The operationId of the operation this one is another path of (its SDK method is that one's). */
  aliasOf?: string;
  /** A protocol's own error answers (ACP, JSON-RPC, OAuth, x402, MPP), in words; otherwise the error contract's ErrorBody. */
  errors?: { description: string; contentType?: string };
}

/** What the document reads of any operation. */
export interface Operation extends OperationDoc {
  auth: OperationAuth;
  permission?: Permission;
  body?: z.ZodType;
  query?: z.ZodType;
  status?: number;
  idempotent?: false;
}

/** An api() route's operation: its api() options and its document entry in one object. */
export type ApiOperation<
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  P extends "secret" | "public",
  D extends DbKind,
> = PipelineOptions<B, Q, D> & { auth: P } & OperationDoc;

function checked<O extends Operation>(spec: O): O {
  if (spec.auth === "secret" ? !spec.permission : spec.auth === "public" && spec.permission)
    throw new Error(`${spec.operationId}: an operation with an API key names its permission, and a public one none.`);
  return spec;
}

/** The options of an api() route, with what the document says of it. */
export function operation<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends "secret" | "public" = "secret",
  D extends DbKind = "prisma",
>(spec: ApiOperation<B, Q, P, D>): ApiOperation<B, Q, P, D> {
  if (!(String(spec.status ?? 200) in spec.responses))
    throw new Error(`${spec.operationId}: its status ${spec.status ?? 200} is not among its responses.`);
  return checked(spec as Operation) as ApiOperation<B, Q, P, D>;
}

/** A path served by another composition: documented only (its route's own composition reads its input). */
export function documented(spec: Operation): Operation {
  return checked(spec);
}

/** The same operation at a second path (an alias), under its own operationId. */
export function alias<O extends Operation>(spec: O, operationId: string): O {
  return { ...spec, operationId, aliasOf: spec.operationId, sdk: undefined };
}
