// Every route handler file declares `dynamic = "force-dynamic"`. Nothing here is ever prerendered, and
// without it Next.js wraps each request in its tracking of dynamic data use, which costs the API about
// 0.3 ms of CPU per request (docs/BENCHMARKS.md, "Request pipeline").
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return /^route\.tsx?$/.test(entry) ? [full] : [];
  });
}

describe("route handler files", () => {
  it('all export dynamic = "force-dynamic"', () => {
    const files = routeFiles(path.join(import.meta.dirname, "../../app"));
    expect(files.length).toBeGreaterThan(10);
    const missing = files.filter((file) => !/^export const dynamic = "force-dynamic";$/m.test(readFileSync(file, "utf8")));
    expect(missing, 'add `export const dynamic = "force-dynamic";` to these route files').toEqual([]);
  });
});
