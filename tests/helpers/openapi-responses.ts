// Every /v1 JSON answer the HTTP tests get through call() (tests/helpers/http.ts) is checked against the
// committed OpenAPI document (docs/openapi.json) for its operation and status; a mismatch fails the test.
// Response objects forbid undocumented fields and require the documented ones (additionalProperties: false).
// Each (operation, status) seen is recorded under the run's directory, so that the global teardown
// (tests/global-setup.ts) can tell which documented success responses no test produced.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const DOCUMENT_ID = "openapi.json";

export function loadDocument(): OpenApi {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "../../docs/openapi.json"), "utf8")) as OpenApi;
}

/**
 * Documented (method, template, status) triples of /v1 success responses, as recorded: `GET /v1/customers 200`.
 * (The protocol paths' answers are their protocols' own, checked by their tests, not by call().)
 */
export function documentedSuccesses(doc: OpenApi = loadDocument()): string[] {
  const v1 = Object.entries(doc.paths).filter(([template]) => template.startsWith("/v1/"));
  return v1.flatMap(([template, methods]) =>
    Object.entries(methods).flatMap(([method, op]) =>
      Object.keys(op.responses)
        .filter((status) => status !== "default")
        .map((status) => `${method.toUpperCase()} ${template} ${status}`),
    ),
  );
}

interface Route {
  template: string;
  pattern: RegExp;
  methods: Record<string, Operation>;
}

let state: { routes: Route[]; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;
const recorded = new Set<string>();

function load() {
  if (state) return state;
  const doc = loadDocument();
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ components: doc.components }, DOCUMENT_ID); // what the $refs name (the paths are not schemas)
  // Static segments win over parameters (/v1/events/stream before /v1/events/{id}), as Next.js routes them.
  const routes = Object.entries(doc.paths)
    .map(([template, methods]) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
      methods,
    }))
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  state = { routes, ajv, validators: new Map() };
  return state;
}

function validatorFor(ref: string): ValidateFunction {
  const { ajv, validators } = load();
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(`${DOCUMENT_ID}${ref}`);
    if (!validate) throw new Error(`docs/openapi.json has no schema at ${ref}`);
    validators.set(ref, validate);
  }
  return validate;
}

/** Notes for the global teardown that a test produced this documented response (`GET /v1/customers 200`). */
export function recordV1Response(key: string | null): void {
  if (key === null || recorded.has(key)) return;
  recorded.add(key);
  const dir = inject("openapiSeenDir");
  if (dir) appendFileSync(path.join(dir, `${process.pid}.txt`), `${key}\n`);
}

/**
 * Throws when a /v1 answer is not what the document says its operation answers with this status; returns
 * the documented response's key (null when no operation claims the path). Answers outside /v1 and to HEAD
 * are not checked, nor is a body that is not JSON (the event stream).
 */
export function checkV1Response(anyCaseMethod: string, url: string, status: number, contentType: string, body: unknown): string | null {
  const method = anyCaseMethod.toUpperCase();
  const pathname = new URL(url).pathname;
  if (!pathname.startsWith("/v1/") || method === "HEAD") return null;
  const route = load().routes.find((r) => r.pattern.test(pathname) && r.methods[method.toLowerCase()]);
  const op = route?.methods[method.toLowerCase()];
  const where = route ? `${method} ${route.template}` : `${method} ${pathname}`;
  const response = op?.responses[String(status)] ?? (status >= 400 ? (op?.responses.default ?? errorResponse()) : undefined);
  if (!response) throw new Error(`${where} answered ${status}, a status docs/openapi.json does not document for it`);
  const key = route ? `${method} ${route.template} ${status}` : null;
  if (!contentType.includes("application/json") || body === null) return key;
  const ref = response.content?.["application/json"]?.schema?.$ref;
  if (!ref) throw new Error(`${where} answered ${status} with JSON, which docs/openapi.json does not document`);
  const validate = validatorFor(ref);
  if (!validate(body)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`,
    );
    throw new Error(
      `${where} ${status}: the body does not match ${ref.split("/").pop()} in docs/openapi.json:\n  ${problems.slice(0, 8).join("\n  ")}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
    );
  }
  return key;
}

/** Any /v1 path no operation claims answers the error contract (the catch-all 404 and the /v1 edge). */
function errorResponse() {
  return { content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } } };
}
