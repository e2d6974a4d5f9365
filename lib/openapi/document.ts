// The OpenAPI 3.1 document of /v1, built from the operation list (operations.ts) with zod's own JSON Schema
// output (draft 2020-12, OpenAPI 3.1's dialect). Response objects are named components (`.meta({ id })` in
// their domain's schemas.ts); request bodies are converted as the routes read them (io: "input").
// Served at GET /v1/openapi.json and written to docs/openapi.json by `npm run openapi`.
import { z } from "zod";
import { ErrorBodySchema } from "../http/errors";
import type { Permission } from "../merchants/permissions";
import { EVENT_STREAM, OPERATIONS, type Operation } from "./operations";

type JsonSchema = Record<string, unknown>;

const componentRef = (id: string) => `#/components/schemas/${id}`;

const TARGET = "draft-2020-12" as const;

function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("Every response schema of lib/openapi/operations.ts needs a .meta({ id }) (its component name).");
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

function parameters(op: Operation) {
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
      description: op.idempotent
        ? "A retry with the same key gets the first answer again (stored 24 hours)."
        : "Read by the operation itself: a retry with the same key finds the same result.",
      schema: { type: "string", maxLength: 255 },
    });
  }
  if (op.auth === "signature") {
    params.push({
      name: "X-Service-Signature",
      in: "header",
      required: true,
      description: "t=<unix>,v1=<hex HMAC-SHA256>",
      schema: { type: "string" },
    });
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

function requestBody(op: Operation, components: Record<string, JsonSchema>, bodyNames: Map<string, z.ZodType>) {
  if (!op.body) return undefined;
  const json = inputSchema(op.body.schema);
  let schema = json;
  const name = op.body.name;
  if (name) {
    if ((components[name] && !bodyNames.has(name)) || (bodyNames.get(name) ?? op.body.schema) !== op.body.schema)
      throw new Error(`Component name ${name} names two schemas.`);
    bodyNames.set(name, op.body.schema);
    components[name] = json;
    schema = { $ref: componentRef(name) };
  }
  return { required: !op.body.schema.safeParse(undefined).success, content: jsonContent(schema) };
}

function responses(op: Operation) {
  const out: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(op.responses)) {
    out[status] =
      schema === EVENT_STREAM
        ? { description: "A stream of server-sent events", content: { [EVENT_STREAM]: { schema: { type: "string" } } } }
        : { description: status === "201" ? "Created" : "OK", content: jsonContent({ $ref: componentRef(idOf(schema)) }) };
  }
  out.default = { description: "An error in the error contract", content: jsonContent({ $ref: componentRef(idOf(ErrorBodySchema)) }) };
  return out;
}

/** The permission a restricted key needs, in words and as the `x-required-permission` extension. */
function permissionOf([resource, access]: Permission) {
  return {
    description: `Restricted keys need \`${resource}: ${access}\`${access === "read" ? " (or write)" : ""}; otherwise 403 FORBIDDEN with details.reason \`permission_denied\`. Secret keys may call every operation.`,
    "x-required-permission": { resource, access },
  };
}

export function buildOpenApiDocument() {
  const roots = [
    idOf(ErrorBodySchema),
    ...OPERATIONS.flatMap((op) =>
      Object.values(op.responses)
        .filter((r) => r !== EVENT_STREAM)
        .map(idOf),
    ),
  ];
  const components = responseComponents(roots);
  const bodyNames = new Map<string, z.ZodType>();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.permission ? permissionOf(op.permission) : {}),
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
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
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

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let built: OpenApiDocument | undefined;

/** The document, built once per process. */
export function openApiDocument(): OpenApiDocument {
  return (built ??= buildOpenApiDocument());
}
