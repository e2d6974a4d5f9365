// The operations of every route, read from where they are written: `operations.ts` beside each `route.ts` under
// app/, one export per HTTP method (lib/openapi/operation.ts). The path and method come from the file's place,
// so an operation cannot name another route's. `npm run openapi` builds the document from these, and
// tests/unit/openapi-coverage.test.ts checks that every route's handlers have one.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { RouteOperation } from "../../lib/openapi/document";
import type { Operation } from "../../lib/openapi/operation";

export const APP = path.join(import.meta.dirname, "../../app");
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every file named `name` under a folder. */
export function filesNamed(dir: string, name: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) return filesNamed(full, name);
      return entry === name ? [full] : [];
    });
}

/** `app/v1/checkouts/[id]/cancel/route.ts` -> `/v1/checkouts/{id}/cancel`. */
export function templateOf(file: string): string {
  const dir = path.relative(APP, path.dirname(file)).split(path.sep).join("/");
  return `/${dir.replace(/\[(\w+)\]/g, "{$1}")}`;
}

export async function routeOperations(): Promise<RouteOperation[]> {
  const found: RouteOperation[] = [];
  for (const file of filesNamed(APP, "operations.ts")) {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, Operation>;
    for (const method of METHODS) {
      const op = exports[method];
      if (op) found.push({ ...op, method: method.toLowerCase() as RouteOperation["method"], path: templateOf(file) });
    }
  }
  return found;
}
