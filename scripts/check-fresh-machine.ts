// npm run check:fresh-machine: the README's quickstart, run as a new user runs it, on a clone of the
// committed HEAD in a temporary folder: `npm run build` with no settings at all, then `npm start` with
// none but a free PORT and EMBEDDED_PG_PORT (so that it never meets a developer's own instance):
// /ready answers, the printed test key creates a customer exactly as the README's curl does, Ctrl-C
// leaves no process and no lock behind, and a second start reuses .data/ (no new seed, same key).
// node_modules is hard-linked from this checkout (what `npm install` would lay down) to save minutes.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runChild } from "./lib/child";
import { freePort, portIsOpen } from "./lib/ports";
import { ROOT } from "./lib/prisma-cli";
import { waitForReady } from "./lib/wait";

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`fresh-machine check failed: ${message}`);
  console.log(`  ok: ${message}`);
}

/** What a new user's shell has: no DATABASE_URL, no BASE_URL, none of the service's settings. */
const bareEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME ?? os.homedir(),
  NEXT_TELEMETRY_DISABLED: "1",
} as unknown as NodeJS.ProcessEnv; // (no NODE_ENV either)

function startService(cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn("npm", ["start"], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function printed(output: () => string, line: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!line.test(output())) {
    if (Date.now() > deadline) throw new Error(`npm start never printed ${line}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function pressCtrlC(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
  process.kill(-child.pid!, "SIGINT"); // what Ctrl-C in a terminal does: the whole foreground process group
  await exited;
}

async function createCustomer(baseUrl: string, key: string, idempotencyKey: string): Promise<Response> {
  // The README's curl: form-less JSON body, a Bearer key and an Idempotency-Key.
  return fetch(`${baseUrl}/v1/customers`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Idempotency-Key": idempotencyKey },
    body: JSON.stringify({ name: "Ada", email: "ada@example.com" }),
  });
}

const clone = mkdtempSync(path.join(os.tmpdir(), "aps-fresh-"));
chmodSync(clone, 0o755); // as a clone in a home folder is: the embedded database's `postgres` user can reach it
const startedAt = Date.now();
let running: ChildProcess | undefined;
try {
  console.log(`Cloning ${ROOT} (HEAD) into ${clone}`);
  const cloned = await runChild("git", ["clone", "--quiet", "--no-hardlinks", ROOT, clone], { capture: true });
  check(cloned.code === 0, `git clone (${cloned.output.trim() || "ok"})`);
  const linked = await runChild("cp", ["-al", path.join(ROOT, "node_modules"), path.join(clone, "node_modules")], { capture: true });
  if (linked.code !== 0)
    cpSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"), { recursive: true, verbatimSymlinks: true });
  rmSync(path.join(clone, "node_modules", ".cache"), { recursive: true, force: true });
  check(
    !existsSync(path.join(clone, "lib", "generated")) && !existsSync(path.join(clone, ".next")),
    "the clone has no generated client and no build",
  );

  const built = await runChild("npm", ["run", "build"], { cwd: clone, env: bareEnv, capture: true });
  check(built.code === 0, `npm run build with no settings${built.code === 0 ? "" : `:\n${built.output}`}`);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { ...bareEnv, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()) };

  const first = startService(clone, env);
  running = first.child;
  await waitForReady(baseUrl, 300_000, () => first.child.exitCode !== null).catch((err) => {
    throw new Error(`${err.message}\n${first.output()}`);
  });
  await printed(first.output, /^Ready: /m); // the seed runs beside the server's boot: /ready may answer before its lines
  check(/Database: embedded PostgreSQL/.test(first.output()), "npm start chose the embedded PostgreSQL");
  const key = /test secret key: (sk_test_\w+)/.exec(first.output())?.[1];
  check(key, "npm start printed the demo merchant's test key");
  check(!/Building the app/.test(first.output()), "npm start reused the build of `npm run build`");
  const customer = await createCustomer(baseUrl, key, "first-customer");
  check(customer.status === 201, `the README's curl created a customer (${customer.status})`);

  await pressCtrlC(first.child);
  check(/Stopping/.test(first.output()), "Ctrl-C stopped the service");
  check(!(await portIsOpen(port)), "nothing listens on the service's port after Ctrl-C");
  check(!(await portIsOpen(Number(env.EMBEDDED_PG_PORT))), "the embedded PostgreSQL stopped with it");
  check(!existsSync(path.join(clone, ".data", "pg", "postmaster.pid")), "no database lock (postmaster.pid) is left behind");

  const second = startService(clone, env);
  running = second.child;
  await waitForReady(baseUrl, 120_000, () => second.child.exitCode !== null).catch((err) => {
    throw new Error(`${err.message}\n${second.output()}`);
  });
  await printed(second.output, /^Ready: /m);
  check(!/Seeded a demo merchant/.test(second.output()), "a second start reuses .data/ (no new seed)");
  const replay = await createCustomer(baseUrl, key, "first-customer");
  check(
    replay.status === 201 && replay.headers.get("idempotent-replayed") === "true",
    "the first key still works and its customer is still there (replayed)",
  );
  await pressCtrlC(second.child);
  running = undefined;
  check(!(await portIsOpen(port)), "the second start stopped cleanly too");
  console.log(`\nFresh-machine check passed in ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  if (running && running.exitCode === null) await pressCtrlC(running).catch(() => {});
  rmSync(clone, { recursive: true, force: true });
}
