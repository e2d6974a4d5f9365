// Every dashboard API handler (app/api/dashboard/**/route.ts) is made with dashboardApi() and declares
// the least role it needs in its options (`role: "developer"`), which lib/dashboard/route.ts checks in one
// step (403 FORBIDDEN, details.role). A handler without the declaration fails here, not in production.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROLES } from "@/lib/accounts/roles";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return /^route\.tsx?$/.test(entry) ? [full] : [];
  });
}

const root = path.join(import.meta.dirname, "../../app/api/dashboard");
const METHOD = /^export const (GET|POST|PUT|PATCH|DELETE)\s*=\s*([\s\S]*?)(?=^export |(?![\s\S]))/gm;

/** Each exported handler of a file with the role its dashboardApi() options declare (null when none). */
function declaredRoles(source: string): { method: string; role: string | null }[] {
  return [...source.matchAll(METHOD)].map(([, method, body]) => {
    const options = /^dashboardApi\(\s*\{\s*role:\s*"([a-z]+)"/.exec(body.trim());
    return { method, role: options ? options[1] : null };
  });
}

describe("dashboard API roles", () => {
  const files = routeFiles(root);

  it("finds the handlers", () => {
    expect(files.length).toBeGreaterThan(15);
  });

  it("every handler is a dashboardApi() declaring a known least role first in its options", () => {
    const missing = files.flatMap((file) =>
      declaredRoles(readFileSync(file, "utf8"))
        .filter(({ role }) => role === null || !(ROLES as readonly string[]).includes(role))
        .map(({ method }) => `${method} ${path.relative(root, file)}`),
    );
    expect(missing, 'declare the least role: dashboardApi({ role: "viewer" | "developer" | "admin" | "owner", ... })').toEqual([]);
    const handlers = files.flatMap((file) => declaredRoles(readFileSync(file, "utf8")));
    expect(handlers.length).toBeGreaterThanOrEqual(files.length);
  });

  it("the check fails a handler without the declaration", () => {
    expect(declaredRoles("export const POST = dashboardApi({ body: X }, () => null);\n")).toEqual([{ method: "POST", role: null }]);
    expect(declaredRoles('export const POST = api({ role: "owner" }, () => null);\n')).toEqual([{ method: "POST", role: null }]);
    expect(
      declaredRoles(
        'export const GET = dashboardApi({ role: "viewer" }, () => null);\nexport const DELETE = dashboardApi(\n  { role: "admin", body: B },\n  f,\n);\n',
      ),
    ).toEqual([
      { method: "GET", role: "viewer" },
      { method: "DELETE", role: "admin" },
    ]);
  });
});
