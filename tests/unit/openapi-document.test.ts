// The OpenAPI document (lib/openapi) against the route files under app/v1, read as text (no route is
// imported): every exported method is an operation and every operation has a route; each operation's body
// and query are the very schemas its route passes to api(), its success statuses include the route's, and its
// required permission (x-required-permission) is the one the route declares.
// And docs/openapi.json is what `npm run openapi` writes today.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";

const ROOT = path.join(import.meta.dirname, "../..");
const V1 = path.join(ROOT, "app/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

/** `app/v1/checkouts/[id]/cancel/route.ts` -> `/v1/checkouts/{id}/cancel`. */
function templateOf(file: string): string {
  const dir = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/");
  return `/${dir.replace(/\[(\w+)\]/g, "{$1}")}`;
}

/** A route file's source; a file that re-exports another route's methods stands for that file. */
function sourceOf(file: string): { file: string; text: string } {
  const text = readFileSync(file, "utf8");
  const reexport = /^export \{[^}]+\} from "(\.[^"]+\/route)";$/m.exec(text);
  return reexport ? sourceOf(path.resolve(path.dirname(file), `${reexport[1]}.ts`)) : { file, text };
}

function exportedMethods(text: string): string[] {
  const found = new Set<string>();
  for (const [, name] of text.matchAll(/^export (?:const|async function|function) (\w+)/gm)) found.add(name);
  for (const [, list] of text.matchAll(/^export \{([^}]+)\}/gm)) {
    for (const part of list.split(","))
      found.add(
        part
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
      );
  }
  return METHODS.filter((method) => found.has(method));
}

interface RouteOperation {
  key: string;
  /** The api({ ... }) options text of this method's handler, when it is made with api(). */
  options?: string;
  imports: Map<string, string>;
}

function routeOperations(): RouteOperation[] {
  return routeFiles(V1)
    .filter((file) => !file.includes("[...path]"))
    .flatMap((file) => {
      const { text } = sourceOf(file);
      const imports = new Map<string, string>();
      for (const [, names, from] of text.matchAll(/^import \{([^}]+)\} from "([^"]+)";$/gm)) {
        for (const name of names.split(",")) imports.set(name.trim(), from);
      }
      return exportedMethods(text).map((method) => ({
        key: `${method.toLowerCase()} ${templateOf(file)}`,
        options: new RegExp(`export const ${method} = api\\(\\s*\\{([^}]*)\\}`).exec(text)?.[1],
        imports,
      }));
    });
}

describe("the OpenAPI document", () => {
  const routes = routeOperations();
  const operations = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op]));

  it("has one operation per exported method of every app/v1 route file, and no other", () => {
    expect(routes.length).toBeGreaterThan(60);
    const routeKeys = routes.map((r) => r.key).sort();
    expect([...operations.keys()].sort(), "lib/openapi/operations.ts and the route files under app/v1 disagree").toEqual(routeKeys);
    expect(OPERATIONS.length, "an operation is listed twice").toBe(operations.size);
  });

  it("documents the body and query schemas each route validates with, and the route's success status", async () => {
    for (const route of routes) {
      const op = operations.get(route.key)!;
      if (!route.options) continue; // not made with api(): the stream, the signed wallet webhook, the document itself
      for (const part of ["body", "query"] as const) {
        const name = new RegExp(`\\b${part}: (\\w+)`).exec(route.options)?.[1];
        const documented = part === "body" ? op.body?.schema : op.query;
        if (!name) {
          expect(documented, `${route.key} documents a ${part} its route does not read`).toBeUndefined();
          continue;
        }
        const from = route.imports.get(name)!.replace(/^@\//, `${ROOT}/`);
        const schema = (await import(`${from}.ts`))[name];
        expect(documented === schema, `${route.key}: the documented ${part} is not ${name}, the route's`).toBe(true);
      }
      const status = Number(/\bstatus: (\d+)/.exec(route.options)?.[1] ?? 200);
      expect(Object.keys(op.responses), `${route.key} answers ${status}`).toContain(String(status));
      expect(op.idempotent, `${route.key}: idempotent`).toBe(!/\bidempotent: false/.test(route.options) && op.method !== "get");
      const declared = /permission: \["(\w+)", "(read|write)"\]/.exec(route.options);
      expect(op.permission ? [...op.permission] : undefined, `${route.key}: the documented permission is the route's`).toEqual(
        declared ? [declared[1], declared[2]] : undefined,
      );
    }
  });

  it("is committed as docs/openapi.json exactly as `npm run openapi` writes it", () => {
    const committed = readFileSync(path.join(ROOT, "docs/openapi.json"), "utf8");
    expect(committed === `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`, "docs/openapi.json is stale: run `npm run openapi`").toBe(
      true,
    );
  });

  it("is OpenAPI 3.1 whose every $ref resolves", () => {
    const doc = buildOpenApiDocument();
    expect(doc.openapi).toBe("3.1.0");
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(([, id]) => id);
    expect(refs.filter((id) => !(id in doc.components.schemas))).toEqual([]);
  });
});
