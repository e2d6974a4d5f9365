// Restricted keys (docs/restricted-keys.md): every route authenticated with an API key declares the permission a
// restricted key needs, and the docs' table lists exactly those routes and MCP tools with the same (resource,
// access). Route files are read as text, as tests/unit/openapi-document.test.ts reads them (no route is imported):
// an api({ auth: "secret" }) or acpRoute() handler must carry `permission: ["<resource>", "read" | "write"]`; a
// composition built on pipeline() with the API-key step (lib/) must pass `permission` in its options; the MCP
// tools declare theirs in their definitions (lib/mcp/tools.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolPermissions } from "@/lib/mcp/tools";
import { allows, normalizePermissions, parsePermissionList, PermissionsInput, RESOURCES } from "@/lib/merchants/permissions";
import { byPath, docsRows, files, line, ROOT, routeRows } from "../helpers/route-permissions";

describe("restricted keys: route permissions", () => {
  const { rows, missing } = routeRows();

  it("every route authenticated with an API key declares its permission", () => {
    expect(rows.length).toBeGreaterThan(90);
    expect(missing, 'add `permission: ["<resource>", "read" | "write"]` to these routes\' api()/acpRoute() options').toEqual([]);
  });

  it("declares only known resources, and reads are GET (any other method writes), except /mcp (read to connect)", () => {
    for (const row of rows) {
      expect(RESOURCES, `${row.method} ${row.path}`).toContain(row.resource);
      if (row.path !== "/mcp") expect(row.access, `${row.method} ${row.path}`).toBe(row.method === "GET" ? "read" : "write");
    }
  });

  it("follows the issue's mapping rules for the aliases and protocol paths", () => {
    const of = (method: string, route: string) => rows.find((r) => r.method === method && r.path === route)?.resource;
    expect(of("POST", "/v1/paywall/verify")).toBe("paywall");
    expect(of("POST", "/v1/x402/resources")).toBe("paid_resources");
    expect(of("POST", "/v1/meters/usage_batches")).toBe("meters");
    expect(of("GET", "/v1/events/stream")).toBe("events");
    expect(of("POST", "/v1/shared_payment_tokens/{id}/redeem")).toBe("shared_payment_tokens");
    for (const row of rows) {
      const protocol = /^\/(visa|mastercard|x402|mpp|acp|a2a|ap2|mcp)\//.exec(`${row.path}/`)?.[1];
      if (protocol) expect(row.resource, `${row.method} ${row.path}`).toBe(protocol);
    }
  });

  it("pipeline() compositions with the API-key step pass a permission", () => {
    const offenders = files(path.join(ROOT, "lib"), /\.ts$/).filter((file) => {
      const text = readFileSync(file, "utf8");
      const steps = [...text.matchAll(/const (\w+): Steps<[^>]+> = \{ authenticate: byApiKey/g)].map((m) => m[1]);
      return steps.some((name) =>
        [...text.matchAll(new RegExp(`pipeline\\(\\s*${name},\\s*\\{([^}]*)\\}`, "g"))].some((m) => !/permission:/.test(m[1])),
      );
    });
    expect(offenders).toEqual([]);
  });

  it("docs/restricted-keys.md lists every route with the same resource and access, and no other", () => {
    const expected = [...rows].sort(byPath).map(line);
    const documented = docsRows().routes.sort(byPath).map(line);
    expect(documented, "the route table of docs/restricted-keys.md, as it should read").toEqual(expected);
  });

  it("every MCP tool declares a permission, and the docs list each with it", () => {
    const tools = toolPermissions();
    expect(tools.size).toBeGreaterThan(10);
    const expected = [...tools].map(([name, [resource, access]]) => `| \`${name}\` | \`${resource}\` | ${access} |`).sort();
    const documented = [...docsRows().tools].map(([name, [resource, access]]) => `| \`${name}\` | \`${resource}\` | ${access} |`).sort();
    expect(documented, "the MCP tool table of docs/restricted-keys.md, as it should read").toEqual(expected);
  });
});

describe("restricted keys: permissions", () => {
  it("write implies read; none and absent allow nothing; a secret key (null) allows everything", () => {
    const grants = { refunds: "write", orders: "read", products: "none" };
    expect(allows(grants, ["refunds", "read"])).toBe(true);
    expect(allows(grants, ["refunds", "write"])).toBe(true);
    expect(allows(grants, ["orders", "read"])).toBe(true);
    expect(allows(grants, ["orders", "write"])).toBe(false);
    expect(allows(grants, ["products", "read"])).toBe(false);
    expect(allows(grants, ["checkouts", "read"])).toBe(false);
    expect(allows(null, ["checkouts", "write"])).toBe(true);
  });

  it("parses the CLI's list and refuses unknown resources, levels and an all-none grant", () => {
    expect(parsePermissionList("checkouts:write, orders:read")).toEqual(normalizePermissions({ checkouts: "write", orders: "read" }));
    expect(() => parsePermissionList("charges:write")).toThrow(/Bad permission/);
    expect(() => parsePermissionList("orders:admin")).toThrow(/Bad permission/);
    expect(() => parsePermissionList("orders:none")).toThrow(/at least one/);
    expect(PermissionsInput.safeParse({ orders: "read", nope: "read" }).success).toBe(false);
  });
});
