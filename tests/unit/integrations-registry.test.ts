// GET /v1/integrations lists only what works: every address an entry names is served by a route file
// under app/ (a protocol adds its entry in the same commit as its routes). The 404 catch-alls of /v1 and /mpp
// serve nothing.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listIntegrations } from "../../lib/integrations/registry";

const APP = path.join(import.meta.dirname, "../../app");
const NOT_FOUND_CATCH_ALLS = [path.join(APP, "v1"), path.join(APP, "mpp")];

/** Whether a route file serves the path (static segments, or a [param] / [...catch-all] folder; not /v1's 404 catch-all). */
function served(pathname: string): boolean {
  const segments = pathname.split("/").filter(Boolean);
  const walk = (dir: string, i: number): boolean => {
    if (i === segments.length) return existsSync(path.join(dir, "route.ts"));
    const entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
    return entries.some((e) => {
      if (e.name === segments[i]) return walk(path.join(dir, e.name), i + 1);
      if (/^\[[^.]+\]$/.test(e.name)) return walk(path.join(dir, e.name), i + 1);
      // the 404 catch-alls of /v1 and /mpp serve nothing
      if (/^\[\.\.\./.test(e.name) && !NOT_FOUND_CATCH_ALLS.includes(dir)) return existsSync(path.join(dir, e.name, "route.ts"));
      return false;
    });
  };
  return walk(APP, 0);
}

describe("integrations registry", () => {
  it("names only addresses a route serves", () => {
    const { data } = listIntegrations("http://127.0.0.1:3000");
    expect(data.length).toBeGreaterThan(0);
    for (const entry of data) {
      expect(entry.versions.length, entry.id).toBeGreaterThan(0);
      for (const [role, url] of Object.entries(entry.endpoints)) {
        expect(served(new URL(url).pathname), `${entry.id}.${role}: ${url}`).toBe(true);
      }
    }
  });

  it("the check itself refuses a path nothing serves", () => {
    expect(served("/x402/not-a-route")).toBe(false);
    expect(served("/v1/not-a-route")).toBe(false);
    expect(served("/mpp/not-a-route")).toBe(false);
    expect(served("/mcp")).toBe(true);
  });
});
