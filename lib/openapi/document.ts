// The OpenAPI 3.1 document, built from the routes' own operations (operation.ts: each beside its route, found by
// scripts/lib/route-operations.ts, as documenso's generateOpenApiDocument(appRouter) reads its routers) with zod's
// own JSON Schema output (draft 2020-12, OpenAPI 3.1's dialect). Response objects are named components
// (`.meta({ id })` in their domain's schemas.ts); request bodies are converted as the routes read them (io: "input").
// Served at GET /v1/openapi.json and written to docs/openapi.json by `npm run openapi`.
import { z } from "zod";
import { ErrorBodySchema } from "../http/errors";
import type { Permission } from "../merchants/permissions";
import { EVENT_STREAM, type Operation, type SuccessResponse } from "./operation";
import { TAGS } from "./tags";

/** An operation at its place: the method and OpenAPI path template of the route that serves it. */
export interface RouteOperation extends Operation {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template: `/v1/customers/{id}`. */
  path: string;
}

type JsonSchema = Record<string, unknown>;

const componentRef = (id: string) => `#/components/schemas/${id}`;

const TARGET = "draft-2020-12" as const;

function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("Every response schema of an operation needs a .meta({ id }) (its component name).");
  return id;
}

/** A request schema as the route reads it; without `$schema`, and with nothing extracted to `$defs`. */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: TARGET, io: "input", unrepresentable: "any" }) as JsonSchema;
  if ("$defs" in json) throw new Error("A request schema embeds a named component; give the route a schema of its own.");
  return json;
}

/** Every `$ref` target (component id) reachable from a JSON value. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") found.add(inner.replace("#/components/schemas/", ""));
      else refsIn(inner, found);
    }
  }
  return found;
}

/** The named response components: every id the operations use, and the ids those refer to. */
function responseComponents(roots: string[]): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { target: TARGET, io: "output", uri: componentRef, unrepresentable: "any" });
  if ("__shared" in schemas) throw new Error("A response schema reuses an unnamed schema zod could only share in $defs.");
  const picked: Record<string, JsonSchema> = {};
  const pending = [...roots];
  while (pending.length) {
    const id = pending.pop()!;
    if (picked[id]) continue;
    const { $schema: _dialect, $id: _id, ...json } = schemas[id] as JsonSchema;
    picked[id] = json;
    pending.push(...refsIn(json));
  }
  return picked;
}

const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });

const isSchema = (response: SuccessResponse): response is z.ZodType => response instanceof z.ZodType;

function parameters(op: RouteOperation) {
  const params: JsonSchema[] = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (op.query) {
    const json = inputSchema(op.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      params.push({ name, in: "query", required: json.required?.includes(name) ?? false, schema });
    }
  }
  if (op.method !== "get" && op.auth === "secret") {
    params.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: isIdempotent(op)
        ? "A retry with the same key gets the first answer again (stored 24 hours)."
        : "Read by the operation itself: a retry with the same key finds the same result.",
      schema: { type: "string", maxLength: 255 },
    });
  }
  if (typeof op.auth === "object" && op.auth.header) {
    params.push({ name: op.auth.header, in: "header", required: true, description: op.auth.description, schema: { type: "string" } });
  }
  if (op.responses[200] === EVENT_STREAM) {
    params.push({
      name: "Last-Event-ID",
      in: "header",
      required: false,
      description: "Resume after this event id.",
      schema: { type: "string" },
    });
  }
  return params;
}

/** The generic Idempotency-Key record: a mutating api() route with an API key, unless it sets idempotent: false. */
const isIdempotent = (op: RouteOperation) => op.method !== "get" && op.auth === "secret" && op.idempotent !== false;

function requestBody(op: RouteOperation, components: Record<string, JsonSchema>, bodyNames: Map<string, z.ZodType>) {
  if (!op.body) return undefined;
  const json = inputSchema(op.body);
  let schema = json;
  const name = op.bodyName;
  if (name) {
    if ((components[name] && !bodyNames.has(name)) || (bodyNames.get(name) ?? op.body) !== op.body)
      throw new Error(`Component name ${name} names two schemas.`);
    bodyNames.set(name, op.body);
    components[name] = json;
    schema = { $ref: componentRef(name) };
  }
  return { required: !op.body.safeParse(undefined).success, content: jsonContent(schema) };
}

function successResponse(status: string, response: SuccessResponse) {
  if (response === EVENT_STREAM)
    return { description: "A stream of server-sent events", content: { [EVENT_STREAM]: { schema: { type: "string" } } } };
  if (isSchema(response))
    return { description: describedAs(status, response), content: jsonContent({ $ref: componentRef(idOf(response)) }) };
  return response.contentType
    ? { description: response.description, content: { [response.contentType]: {} } }
    : { description: response.description };
}

/** A success's name; a documented error status (a 402 that waits for approval) says what it means, from its schema's meta. */
function describedAs(status: string, schema: z.ZodType): string {
  if (Number(status) >= 400) return z.globalRegistry.get(schema)?.description ?? "An error in the error contract";
  return status === "201" ? "Created" : "OK";
}

function responses(op: RouteOperation) {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(op.responses)) out[status] = successResponse(status, response);
  out.default = op.errors
    ? { description: op.errors.description, ...(op.errors.contentType ? { content: { [op.errors.contentType]: {} } } : {}) }
    : { description: "An error in the error contract", content: jsonContent({ $ref: componentRef(idOf(ErrorBodySchema)) }) };
  return out;
}

/** The permission a restricted key needs, in words and as the `x-required-permission` extension. */
function permissionOf([resource, access]: Permission, auth: RouteOperation["auth"]) {
  return {
    description: `${typeof auth === "object" ? `${auth.description} ` : ""}Restricted keys need \`${resource}: ${access}\`${access === "read" ? " (or write)" : ""}; otherwise 403 FORBIDDEN with details.reason \`permission_denied\`. Secret keys may call every operation.`,
    "x-required-permission": { resource, access },
  };
}

/** The operations in the reference's order: by tag (tags.ts), then as found. */
function ordered(operations: RouteOperation[]): RouteOperation[] {
  const rank = new Map(TAGS.map(({ name }, i) => [name, i]));
  const unknown = operations.filter((op) => !rank.has(op.tag)).map((op) => `${op.operationId}: ${op.tag}`);
  if (unknown.length) throw new Error(`Tags not in lib/openapi/tags.ts: ${unknown.join(", ")}`);
  return operations
    .map((op, i) => ({ op, i }))
    .sort((a, b) => rank.get(a.op.tag)! - rank.get(b.op.tag)! || a.i - b.i)
    .map(({ op }) => op);
}

export function buildOpenApiDocument(found: RouteOperation[]) {
  const operations = ordered(found);
  const roots = [idOf(ErrorBodySchema), ...operations.flatMap((op) => Object.values(op.responses).filter(isSchema).map(idOf))];
  const components = responseComponents(roots);
  const bodyNames = new Map<string, z.ZodType>();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.permission ? permissionOf(op.permission, op.auth) : typeof op.auth === "object" ? { description: op.auth.description } : {}),
      tags: [op.tag],
      ...(op.auth === "secret" ? {} : { security: [] }),
      parameters: parameters(op),
      requestBody: requestBody(op, components, bodyNames),
      responses: responses(op),
    };
  }
  const sorted = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((id) => [id, components[id]]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Agent Payments Service API",
      version: "v1",
      description:
        "The /v1 REST API. Authenticate with an API key as a Bearer token: a secret key (sk_test_... or sk_live_...) or a restricted key (rk_test_... or rk_live_...), which may call only what its permissions grant (each operation's x-required-permission).",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    security: [{ apiKey: [] }],
    tags: TAGS.filter(({ name }) => operations.some((op) => op.tag === name)),
    paths: JSON.parse(JSON.stringify(paths)) as typeof paths, // drops the undefined requestBody of body-less operations
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "An API key: sk_test_... / sk_live_... (secret) or rk_test_... / rk_live_... (restricted)",
        },
      },
      schemas: sorted,
    },
  };
}
