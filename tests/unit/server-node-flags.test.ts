// The production server's Node flags (package.json `serverNodeFlags`, docs/operations.md "Memory and garbage
// collection") reach the server however this repository starts it (scripts/lib/server-process.ts: npm start, the
// tests' and the benchmarks' servers), each tree with its own; the documented deploy command carries the same ones.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/ports";
import { serverNodeFlags, startServerProcess } from "../../scripts/lib/server-process";

const ROOT = path.join(import.meta.dirname, "../..");

// A stand-in for server.mjs in a tree of its own: /health answers with the flags the process runs with.
const STUB_SERVER = `import { createServer } from "node:http";
createServer((req, res) => res.end(JSON.stringify(process.execArgv))).listen(Number(process.env.PORT), "127.0.0.1");
`;
const trees: string[] = [];
function stubTree(packageJson: object): string {
  const root = mkdtempSync(path.join(tmpdir(), "aps-server-flags-"));
  trees.push(root);
  writeFileSync(path.join(root, "package.json"), JSON.stringify(packageJson));
  writeFileSync(path.join(root, "server.mjs"), STUB_SERVER);
  return root;
}
afterAll(() => trees.forEach((root) => rmSync(root, { recursive: true, force: true })));

async function execArgvOfServer(root: string, nodeArgs: string[] = []): Promise<string[]> {
  const server = await startServerProcess(await freePort(), {}, false, nodeArgs, root);
  try {
    return (await (await fetch(`${server.url}/health`)).json()) as string[];
  } finally {
    await server.stop();
  }
}

describe("the production server's Node flags", () => {
  const flags = serverNodeFlags();

  it("are set, and Node accepts them", () => {
    expect(flags).toContain("--max-semi-space-size=32");
    const run = spawnSync(process.execPath, [...flags, "-e", "0"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("reach the server process, before the caller's own arguments; a tree without them runs without", async () => {
    expect(await execArgvOfServer(stubTree({ serverNodeFlags: flags }), ["--no-warnings"])).toEqual([...flags, "--no-warnings"]);
    expect(await execArgvOfServer(stubTree({ name: "older-tree" }))).toEqual([]);
  });

  it("are in the documented deploy command", () => {
    const operations = readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
    expect(operations).toContain(`node ${flags.join(" ")} server.mjs`);
  });

  it("are in the Playwright server's command", async () => {
    const config = (await import("../../playwright.config")).default;
    const servers = [config.webServer ?? []].flat();
    expect(servers.map((server) => server.command)).toContain(`node ${flags.join(" ")} server.mjs`);
  });
});
