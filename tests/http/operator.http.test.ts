// The two operator entry points of docs/operations.md: `npm start` on a machine without
// DATABASE_URL (embedded PostgreSQL), and `npm run merchant:create -- --name X --json`.
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/prisma-cli";
import { call } from "../helpers/http";
import { freePort } from "../helpers/server";

function runNpm(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("close", (code) => resolve({ code, output }));
  });
}

describe("operator CLI", () => {
  it("merchant:create --json prints one JSON line whose keys work at once", async () => {
    const result = spawnSync("npm", ["run", "-s", "merchant:create", "--", "--name", "CLI merchant", "--json"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env },
    });
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(created).toEqual({
      merchantId: expect.stringMatching(/^mer_/),
      testSecretKey: expect.stringMatching(/^sk_test_/),
      liveSecretKey: expect.stringMatching(/^sk_live_/),
    });
    const res = await call("POST", "/v1/customers", { key: created.testSecretKey, body: { name: "from CLI" } });
    expect(res.status).toBe(201);
    expect(res.body.livemode).toBe(false);
    expect((await call("GET", "/v1/customers", { key: created.liveSecretKey })).body.data).toEqual([]);
  });
});

describe("npm start without DATABASE_URL", () => {
  it("brings the service up on the embedded PostgreSQL with the operator's BASE_URL; /ready answers 200; Ctrl-C stops it", async () => {
    const port = await freePort();
    const publicAddress = "https://pay.example.test"; // an operator's public address behind a proxy
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), BASE_URL: publicAddress };
    delete env.DATABASE_URL;
    const child = spawn("npm", ["start"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    try {
      let ready: Response | null = null;
      const deadline = Date.now() + 100_000;
      while (Date.now() < deadline && child.exitCode === null) {
        ready = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null);
        if (ready?.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(ready?.status, output).toBe(200);
      expect(await ready!.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok" } });
      expect(output).toMatch(/embedded PostgreSQL/);
      // The seed runs beside the server's boot, so /ready can answer a moment before npm start prints Ready.
      for (const deadline = Date.now() + 60_000; !output.includes("Ready: ") && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toContain(`Ready: ${publicAddress}`);

      // A merchant on that same embedded database (the CLI reuses the running server): its checkout links use BASE_URL.
      const created = await runNpm(["run", "-s", "merchant:create", "--", "--name", "Behind a proxy", "--json"], env);
      expect(created.code, created.output).toBe(0);
      const { testSecretKey } = JSON.parse(created.output.trim().split("\n").at(-1)!);
      const checkout = await fetch(`http://127.0.0.1:${port}/v1/checkouts`, {
        method: "POST",
        headers: { Authorization: `Bearer ${testSecretKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ amount: 1500, currency: "usd" }),
      });
      expect(checkout.status).toBe(201);
      expect((await checkout.json()).url).toMatch(new RegExp(`^${publicAddress}/pay/`));
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGINT"); // what Ctrl-C in a terminal does: the whole process group
      await exited;
    }
    expect(output).toMatch(/Stopping/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await fetch(`http://127.0.0.1:${port}/health`).catch(() => null)).toBeNull();
  }, 150_000);
});
