// The SDK as a merchant installs it. packages/sdk is copied alone out of the repository and installed there
// from the npm registry (its own devDependencies, no workspace around it); its own scripts (test, lint) pass
// there, and `npm pack` there (its prepack builds dist/ with tsup) makes the tarball. The tarball is installed
// into a scratch project, then from there: the entries load through require and import, the declarations
// type-check the MCP example and a client script, the bin runs, the client script (TypeScript, run by tsx)
// calls the service through the generated resource methods, and the example itself (examples/mcp-server.ts,
// copied unchanged; it imports the SDK by its package name) serves a paid tool call end to end.
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../helpers/http";
import { expectPaidCallEndToEnd, startMcpExample, type ExampleServer } from "../helpers/mcp-example";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const PACKAGE_DIR = path.join(ROOT, "packages/sdk");
const PACKAGE_NAME = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")).name as string;
const scratch = mkdtempSync(path.join(tmpdir(), "aps-sdk-package-"));
/** The package folder copied alone (no node_modules, no dist): what a clean checkout of packages/sdk holds. */
const packageAlone = path.join(scratch, "sdk-alone");

/** npm's own settings of the `npm test` that runs us (its prefix is this repository) must not reach the scratch project. */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")),
) as NodeJS.ProcessEnv;
const runIn = (cwd: string, command: string, args: string[]) => run(command, args, { cwd, env: cleanEnv, maxBuffer: 16 << 20 });
const inScratch = (command: string, args: string[]) => runIn(scratch, command, args);
/** The version of a dependency this repository has installed (the scratch project asks the registry for the same). */
const installedVersion = (name: string) =>
  JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")).version as string;

/** A merchant's script against the installed package: typed resource methods, answers read by their types. */
const CLIENT_CALL = `import { ServiceClient, type Customer, type List } from "agent-payments-sdk";

const client = new ServiceClient({ baseUrl: process.env.SERVICE_URL!, apiKey: process.env.SERVICE_API_KEY! });
const created: Customer = await client.customers.create({ name: "Packed SDK customer", email: "packed@example.com" });
const listed: List<Customer> = await client.customers.list({ limit: 5 });
const endpoints = await client.webhookEndpoints.list();
console.log(JSON.stringify({ id: created.id, listed: listed.data.map((c) => c.id), endpoints: endpoints.data.length }));
`;

let seller: TestMerchant;
let payer: TestMerchant;
let example: ExampleServer | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  [seller, payer] = await Promise.all([createTestMerchant("Packed SDK seller"), createTestMerchant("Packed SDK agent")]);
  cpSync(PACKAGE_DIR, packageAlone, { recursive: true, filter: (from) => !/[/\\](node_modules|dist)$/.test(from) });
  await runIn(packageAlone, "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"]);
  await runIn(packageAlone, "npm", ["pack", "--pack-destination", scratch]);
  const tarball = readdirSync(scratch).find((name) => name.endsWith(".tgz"));
  expect(tarball).toBeDefined();
  writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "sdk-scratch", private: true, type: "module" }));
  // The example's own imports besides the SDK: the MCP SDK and zod, at this repository's versions; and mppx (with
  // its peer viem), the optional peer its MPP-over-MCP import (agent-payments-sdk/mcp-mpp) needs.
  await inScratch("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    `./${tarball}`,
    `@modelcontextprotocol/sdk@${installedVersion("@modelcontextprotocol/sdk")}`,
    `zod@${installedVersion("zod")}`,
    `mppx@${installedVersion("mppx")}`,
    `viem@${installedVersion("viem")}`,
  ]);
  copyFileSync(path.join(ROOT, "examples/mcp-server.ts"), path.join(scratch, "mcp-server.ts"));
  writeFileSync(path.join(scratch, "client-call.ts"), CLIENT_CALL);
  // Its own tsconfig, so neither tsx nor tsc finds this repository's paths (which point at the source). Node's
  // declarations (the example uses node:http) come from this repository's @types.
  const compilerOptions = { target: "ES2022", module: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: ["node"] };
  const tsconfig = {
    compilerOptions: { ...compilerOptions, typeRoots: [path.join(ROOT, "node_modules/@types")] },
    files: ["mcp-server.ts", "client-call.ts"],
  };
  writeFileSync(path.join(scratch, "tsconfig.json"), JSON.stringify(tsconfig));
}, 420_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await example?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe(`the packed SDK (${PACKAGE_NAME}), installed from its tarball outside the repository`, () => {
  it("loads through require and import from dist/, and its bin runs", async () => {
    const required = await inScratch("node", [
      "-p",
      `const s = require("${PACKAGE_NAME}"); [require.resolve("${PACKAGE_NAME}"), typeof s.ServiceClient, typeof s.paywall].join(" ")`,
    ]);
    expect(required.stdout.trim()).toBe(`${path.join(scratch, "node_modules", PACKAGE_NAME, "dist/index.cjs")} function function`);
    const imported = await inScratch("node", [
      "--input-type=module",
      "-e",
      `const s = await import("${PACKAGE_NAME}"); console.log(import.meta.resolve("${PACKAGE_NAME}"), typeof s.ServiceClient, typeof s.verifyWebhook, "default" in s)`,
    ]);
    expect(imported.stdout.trim()).toBe(
      `file://${path.join(scratch, "node_modules", PACKAGE_NAME, "dist/index.js")} function function false`,
    );
    const help = await inScratch(path.join(scratch, "node_modules/.bin/agent-payments-listen"), ["--help"]);
    expect(help.stdout).toMatch(/^usage: agent-payments-listen --api-key/);
  });

  it("its own scripts pass in the folder installed alone: test (tsc and vitest) and lint", async () => {
    await runIn(packageAlone, "npm", ["test"]);
    await runIn(packageAlone, "npm", ["run", "lint"]);
  }, 180_000);

  it("a TypeScript client script calls the service through the installed package", async () => {
    const result = await run(path.join(ROOT, "node_modules/.bin/tsx"), ["client-call.ts"], {
      cwd: scratch,
      env: { ...cleanEnv, SERVICE_URL: baseUrl(), SERVICE_API_KEY: seller.testKey },
    });
    const printed = JSON.parse(result.stdout) as { id: string; listed: string[]; endpoints: number };
    expect(printed.id).toMatch(/^cus_/);
    expect(printed.listed).toContain(printed.id);
    const stored = await fetch(`${baseUrl()}/v1/customers/${printed.id}`, { headers: { authorization: `Bearer ${seller.testKey}` } });
    expect(stored.status).toBe(200);
    expect(((await stored.json()) as { name: string }).name).toBe("Packed SDK customer");
  });

  it("its declarations type-check the MCP example and the client script (NodeNext resolution, the package's `types` conditions)", async () => {
    const result = await inScratch(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", "."]).catch((err: { stdout: string }) => err);
    expect(result.stdout).toBe("");
  });

  it("runs the MCP example from the scratch project: a paid tool call end to end against the service", async () => {
    const serviceUrl = baseUrl();
    example = await startMcpExample(
      { SERVICE_URL: serviceUrl, SERVICE_API_KEY: seller.testKey, MERCHANT_ID: seller.merchantId, PRICE: "25", CURRENCY: "usd" },
      { script: path.join(scratch, "mcp-server.ts"), cwd: scratch },
    );
    const connect = async (server: ExampleServer) => {
      const client = new Client({ name: "packed-sdk-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      clients.push(client);
      return client;
    };
    await expectPaidCallEndToEnd({ examples: [example], connect, seller, payer, serviceUrl });
  });
});
