// npm run bench:startup: how long a warm `npm start` takes to answer /ready, and how long
// `npm run merchant:create` takes, each the median of BENCH_RUNS (default 5) runs, the way an operator
// runs them: `npm start` on the embedded database (initialised, migrated and built by a first run that
// is not measured), stopped with Ctrl-C (SIGINT to its process group) between runs.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/prisma-cli";
import { waitForReady } from "./lib/wait";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = Number(process.env.PORT ?? 3000);
const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT) };
delete env.DATABASE_URL;

function npm(args: string[]): ChildProcess {
  return spawn("npm", args, { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function timeWarmStart(timeoutMs = 120_000): Promise<{ readyMs: number; started: ChildProcess }> {
  const startedAt = performance.now();
  const started = npm(["start"]);
  let output = "";
  started.stdout!.on("data", (chunk) => (output += chunk));
  started.stderr!.on("data", (chunk) => (output += chunk));
  await waitForReady(`http://127.0.0.1:${PORT}`, timeoutMs, () => started.exitCode !== null).catch((err) => {
    throw new Error(`${err.message}\n${output}`);
  });
  return { readyMs: performance.now() - startedAt, started };
}

async function stop(child: ChildProcess): Promise<number> {
  const stoppingAt = performance.now();
  process.kill(-child.pid!, "SIGINT"); // what Ctrl-C in a terminal does
  await exited(child);
  return performance.now() - stoppingAt;
}

async function timeMerchantCreate(): Promise<number> {
  const startedAt = performance.now();
  const child = npm(["run", "merchant:create", "--", "--name", "Bench merchant", "--json"]);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  if ((await exited(child)) !== 0) throw new Error(`merchant:create failed:\n${output}`);
  if (!/"testSecretKey":"sk_test_/.test(output)) throw new Error(`merchant:create printed no key:\n${output}`);
  return performance.now() - startedAt;
}

// One unmeasured run first: it initialises the database, applies migrations, seeds and builds if needed.
await stop((await timeWarmStart(900_000)).started);

const ready: number[] = [];
const stops: number[] = [];
const createWhileServing: number[] = [];
const createStopped: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const { readyMs, started } = await timeWarmStart();
  ready.push(readyMs);
  createWhileServing.push(await timeMerchantCreate());
  stops.push(await stop(started));
  if (existsSync(path.join(ROOT, ".data", "pg", "postmaster.pid"))) throw new Error("Ctrl-C left the embedded database running");
  createStopped.push(await timeMerchantCreate());
}
console.log(`runs: ${RUNS} (median, then all)`);
console.log(`warm npm start -> /ready:            ${seconds(median(ready))}   [${ready.map(seconds).join(", ")}]`);
console.log(`Ctrl-C -> npm start exited:          ${seconds(median(stops))}   [${stops.map(seconds).join(", ")}]`);
console.log(
  `merchant:create, service running:    ${seconds(median(createWhileServing))}   [${createWhileServing.map(seconds).join(", ")}]`,
);
console.log(`merchant:create, service stopped:    ${seconds(median(createStopped))}   [${createStopped.map(seconds).join(", ")}]`);
