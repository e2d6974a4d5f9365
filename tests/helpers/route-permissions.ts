// The route walk of tests/unit/route-permissions.test.ts: every route file under app/ read as text (no route is
// imported), each exported method's handler, and the permission it declares (docs/restricted-keys.md).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.join(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export function files(dir: string, name: RegExp): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return files(full, name);
    return name.test(entry) ? [full] : [];
  });
}

/** `app/v1/checkouts/[id]/cancel/route.ts` -> `/v1/checkouts/{id}/cancel`. */
export function templateOf(file: string): string {
  const dir = path.relative(APP, path.dirname(file)).split(path.sep).join("/");
  return `/${dir.replace(/\[(\w+)\]/g, "{$1}")}`;
}

/** A route file's source; a file that re-exports another route's methods stands for that file. */
export function sourceOf(file: string): { file: string; text: string } {
  const text = readFileSync(file, "utf8");
  const reexport = /^export \{[^}]+\} from "(\.[^"]+\/route)";$/m.exec(text);
  return reexport ? sourceOf(path.resolve(path.dirname(file), `${reexport[1]}.ts`)) : { file, text };
}

/**
 * A handler made with the operation beside its route (`api(operation.POST, ...)`, lib/openapi/operation.ts) reads
 * as if its options were written in place: the text of that export of the route's operations.ts.
 */
function withOperation(handler: string, routeFile: string): string {
  const named = /^((?:asDirectory\()?\w+\()\s*operation\.(\w+)\b/.exec(handler);
  if (!named) return handler;
  const text = readFileSync(path.join(path.dirname(routeFile), "operations.ts"), "utf8");
  const options = handlers(text).get(named[2]) ?? "";
  const fields = [/auth: "\w+"/, DECLARED].map((field) => field.exec(options)?.[0]).filter(Boolean);
  return `${named[1]}{ ${fields.join(", ")} })`;
}

/** Each exported method's handler: the text of `export const M = ...`, or the name it re-exports. */
export function handlers(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const chunks = text.split(/^(?=export )/m);
  for (const chunk of chunks) {
    const constant = /^export const (\w+) = ([\s\S]*)/.exec(chunk);
    if (constant && METHODS.includes(constant[1])) found.set(constant[1], constant[2]);
    const list = /^export \{([^}]+)\}/.exec(chunk);
    for (const part of list?.[1].split(",") ?? []) {
      const [local, exported = local] = part.trim().split(/\s+as\s+/);
      if (METHODS.includes(exported)) found.set(exported, local);
    }
    const fn = /^export (?:async )?function (\w+)/.exec(chunk);
    if (fn && METHODS.includes(fn[1])) found.set(fn[1], `function ${fn[1]}`);
  }
  return found;
}

export type Access = "read" | "write";
export interface Row {
  method: string;
  path: string;
  resource: string;
  access: Access;
}

const DECLARED = /permission: \["(\w+)", "(read|write)"\]/;

/** Compositions on pipeline() with the API-key step, by the name a route exports, and their declared permission. */
function compositionPermissions(): Map<string, [string, Access]> {
  const found = new Map<string, [string, Access]>();
  const sources: [string, string, string][] = [
    ["serveAgentRpc", "lib/a2a/serve-agent.ts", "A2A_PERMISSION"],
    ["serveAgentRestRead", "lib/a2a/serve-rest.ts", "A2A_READ_PERMISSION"],
    ["serveAgentRestWrite", "lib/a2a/serve-agent.ts", "A2A_PERMISSION"],
    ["handleMcp", "lib/mcp/handle.ts", "MCP_PERMISSION"],
  ];
  for (const [name, file, constant] of sources) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const match = new RegExp(`export const ${constant}: Permission = \\["(\\w+)", "(read|write)"\\];`).exec(text);
    if (match) found.set(name, [match[1], match[2] as Access]);
  }
  return found;
}

export function routeRows(): { rows: Row[]; missing: string[] } {
  const compositions = compositionPermissions();
  const rows: Row[] = [];
  const missing: string[] = [];
  for (const file of files(APP, /^route\.tsx?$/)) {
    if (file.includes("[...")) continue; // catch-alls: plain 404s
    const route = templateOf(file);
    const source = sourceOf(file);
    for (const [method, written] of handlers(source.text)) {
      const handler = withOperation(written, source.file);
      const key = `${method} ${route}`;
      const composition = compositions.get(handler.trim().replace(/;$/, ""));
      if (composition) {
        rows.push({ method, path: route, resource: composition[0], access: composition[1] });
        continue;
      }
      const withKey =
        /^(?:asDirectory\()?(?:api|acpRoute|acpVersionedRoute|facilitatorRoute)\(/.test(handler) &&
        !/auth: "public"/.test(handler.slice(0, 200));
      if (!withKey) continue;
      const declared = DECLARED.exec(handler);
      if (!declared) missing.push(key);
      else rows.push({ method, path: route, resource: declared[1], access: declared[2] as Access });
    }
  }
  return { rows, missing };
}

export function docsRows(): { routes: Row[]; tools: Map<string, [string, string]> } {
  const text = readFileSync(path.join(ROOT, "docs/restricted-keys.md"), "utf8");
  const routes: Row[] = [];
  for (const [, method, route, resource, access] of text.matchAll(
    /^\| `(GET|POST|PUT|PATCH|DELETE)` \| `([^`]+)` \| `(\w+)` \| (read|write) \|$/gm,
  ))
    routes.push({ method, path: route, resource, access: access as Access });
  const tools = new Map<string, [string, string]>();
  for (const [, name, resource, access] of text.matchAll(/^\| `(\w+)` \| `(\w+)` \| (read|write) \|$/gm))
    tools.set(name, [resource, access]);
  return { routes, tools };
}

export const line = (r: Row) => `| \`${r.method}\` | \`${r.path}\` | \`${r.resource}\` | ${r.access} |`;
export const byPath = (a: Row, b: Row) => a.path.localeCompare(b.path) || METHODS.indexOf(a.method) - METHODS.indexOf(b.method);
