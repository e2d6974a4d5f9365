// The OpenAPI document covers every path the service serves to API clients: each exported handler of every route
// file under app/ (read as text, no route is imported) made with api() or another composition of the pipeline
// (acpRoute, facilitatorRoute, publicRoute, serveX402Resource, serveMppResource, serveAgentCard, serveAgentRpc,
// handleMcp) or by hand (the signed wallet webhook), protocol paths included, has its operation in the document,
// built from the operations.ts beside the routes. The folders left out are the service's own pages and their
// endpoints, and none of them uses api(). Each documented permission is the one the route runs with.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { APP, filesNamed, routeOperations, templateOf } from "../../scripts/lib/route-operations";
import { handlers, routeRows, sourceOf } from "../helpers/route-permissions";

/** Not an API: the dashboard's own endpoints, the emailed links', next-auth's and the tick's (api/), the pay page's forms, the reference page, the probes. */
const NOT_API = ["api/", "pay/", "docs/", "health/", "ready/"];

/** The answers of a path's other methods and of catch-alls: 404 and 405 in the protocol's shape, no operation. */
const REFUSALS = /^(?:notFound|notAllowed|\(\) => methodNotAllowed\()/;

const COMPOSITIONS = [
  "api",
  "acpRoute",
  "facilitatorRoute",
  "publicRoute",
  "serveX402Resource",
  "serveMppResource",
  "serveAgentCard",
  "serveAgentRpc",
  "handleMcp",
  "by hand",
] as const;

function compositionOf(handler: string, text: string): (typeof COMPOSITIONS)[number] {
  const called = /^(?:asDirectory\(\s*)?(\w+)/.exec(handler)?.[1] ?? "";
  if ((COMPOSITIONS as readonly string[]).includes(called)) return called as (typeof COMPOSITIONS)[number];
  // a local function that hands the request to a composition (`handle` of /mpp/r/:id)
  const local = new RegExp(`function ${called}\\([^)]*\\)[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(text)?.[1] ?? "";
  return COMPOSITIONS.find((name) => local.includes(`${name}(`)) ?? "by hand";
}

interface Handler {
  key: string;
  composition: (typeof COMPOSITIONS)[number];
}

function servedHandlers(): { served: Handler[]; outside: string[] } {
  const served: Handler[] = [];
  const outside: string[] = [];
  for (const file of filesNamed(APP, "route.ts")) {
    const where = `${path.relative(APP, path.dirname(file))}/`;
    const { text } = sourceOf(file);
    if (NOT_API.some((prefix) => where.startsWith(prefix))) {
      if (/\bapi\(/.test(readFileSync(file, "utf8"))) outside.push(where);
      continue;
    }
    if (file.includes("[...")) continue; // catch-alls: the protocol's 404
    for (const [method, handler] of handlers(text)) {
      if (REFUSALS.test(handler.trim())) continue;
      served.push({ key: `${method.toLowerCase()} ${templateOf(file)}`, composition: compositionOf(handler.trim(), text) });
    }
  }
  return { served, outside };
}

describe("the OpenAPI document's coverage", async () => {
  const operations = await routeOperations();
  const doc = buildOpenApiDocument(operations);
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([template, methods]) => Object.keys(methods).map((m) => `${m} ${template}`)),
  );
  const { served, outside } = servedHandlers();

  it("documents every handler of every composition, protocol paths included", () => {
    const counts = Object.fromEntries(COMPOSITIONS.map((name) => [name, served.filter((h) => h.composition === name).length]));
    console.log(
      `handlers by composition: ${JSON.stringify(counts)}; protocol paths: ${served.filter((h) => !h.key.includes(" /v1/")).length}`,
    );
    expect(counts.api).toBeGreaterThan(95);
    expect(served.filter((h) => !h.key.includes(" /v1/")).length).toBeGreaterThan(60);
    for (const name of COMPOSITIONS) expect(counts[name], `no handler made with ${name}: is the walk still right?`).toBeGreaterThan(0);
    expect(
      served.filter((h) => !documented.has(h.key)).map((h) => `${h.key} (${h.composition})`),
      "handlers in no document: add their operations.ts",
    ).toEqual([]);
    expect(documented.size, "an operation without a handler").toBe(new Set(served.map((h) => h.key)).size);
  });

  it("leaves out only folders that use no api()", () => {
    expect(outside).toEqual([]);
  });

  it("puts each protocol path under its own tag", () => {
    for (const [template, methods] of Object.entries(doc.paths)) {
      const protocol = /^\/(x402|mpp|acp|a2a|ap2|visa|mastercard|oauth|mcp)\b/.exec(template)?.[1];
      if (!protocol) continue;
      for (const op of Object.values(methods) as { tags: string[] }[]) expect(op.tags[0].toLowerCase(), template).toBe(protocol);
    }
  });

  it("documents the permission each route runs with", () => {
    const { rows } = routeRows();
    expect(rows.length).toBeGreaterThan(90);
    for (const row of rows) {
      const op = doc.paths[row.path]?.[row.method.toLowerCase()] as { "x-required-permission"?: { resource: string; access: string } };
      expect(op?.["x-required-permission"], `${row.method} ${row.path}`).toEqual({ resource: row.resource, access: row.access });
    }
  });
});
