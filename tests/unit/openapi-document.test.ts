// The OpenAPI document (lib/openapi) against the route files under app/v1: every exported method is an
// operation and every operation has a route; each route passes its own operation (the export of the same method
// in the operations.ts beside it, lib/openapi/operation.ts) to api(), so the documented body, query, success
// status, idempotency and required permission (x-required-permission) are the very options the route runs with.
// And docs/openapi.json is what `npm run openapi` writes today.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { APP, filesNamed, METHODS, routeOperations, templateOf } from "../../scripts/lib/route-operations";

const ROOT = path.join(import.meta.dirname, "../..");

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

interface RouteMethod {
  key: string;
  method: string;
  /** The route file that holds the handler (the re-exported one for an alias). */
  source: { file: string; text: string };
}

function routeMethods(): RouteMethod[] {
  return filesNamed(path.join(APP, "v1"), "route.ts")
    .filter((file) => !file.includes("[...path]"))
    .flatMap((file) => {
      const source = sourceOf(file);
      return exportedMethods(source.text).map((method) => ({ key: `${method.toLowerCase()} ${templateOf(file)}`, method, source }));
    });
}

describe("the OpenAPI document", async () => {
  const routes = routeMethods();
  const all = await routeOperations();
  const v1 = all.filter((op) => op.path.startsWith("/v1/"));
  const operations = new Map(v1.map((op) => [`${op.method} ${op.path}`, op]));

  it("has one operation per exported method of every app/v1 route file, and no other", () => {
    expect(routes.length).toBeGreaterThan(60);
    const routeKeys = routes.map((r) => r.key).sort();
    expect([...operations.keys()].sort(), "the operations.ts files and the route files under app/v1 disagree").toEqual(routeKeys);
    expect(v1.length, "an operation is listed twice").toBe(operations.size);
  });

  it("documents the options each route runs with: the route passes api() the operation of its own method", async () => {
    for (const route of routes) {
      const op = operations.get(route.key)!;
      const handler = new RegExp(`export const ${route.method} = (\\w+)\\(\\s*([\\w.]+)`).exec(route.source.text);
      if (handler?.[1] !== "api") continue; // not made with api(): the signed wallet webhook
      expect(handler[2], `${route.key} runs with another method's options`).toBe(`operation.${route.method}`);
      expect(route.source.text, `${route.key} imports the operations beside it`).toContain('import * as operation from "./operations";');
      const own = (await import(path.join(path.dirname(route.source.file), "operations.ts")))[route.method];
      for (const part of ["body", "query", "permission", "status", "idempotent", "auth"] as const)
        expect(op[part] === own[part], `${route.key}: the documented ${part} is not the route's`).toBe(true);
      expect(Object.keys(op.responses), `${route.key} answers ${op.status ?? 200}`).toContain(String(op.status ?? 200));
    }
  });

  it("is committed as docs/openapi.json exactly as `npm run openapi` writes it", () => {
    const committed = readFileSync(path.join(ROOT, "docs/openapi.json"), "utf8");
    expect(
      committed === `${JSON.stringify(buildOpenApiDocument(all), null, 2)}\n`,
      "docs/openapi.json is stale: run `npm run openapi`",
    ).toBe(true);
  });

  it("is OpenAPI 3.1 whose every $ref resolves", () => {
    const doc = buildOpenApiDocument(all);
    expect(doc.openapi).toBe("3.1.0");
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(([, id]) => id);
    expect(refs.filter((id) => !(id in doc.components.schemas))).toEqual([]);
  });
});
