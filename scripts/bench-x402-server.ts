// npm run bench:x402-server: the server's time of a test-mode x402 paid request at one payer (issue 38), alone: a
// production build on a fresh database, one hosted paid resource (1 cent, JSON content), authorizations signed
// beforehand by the real x402 client (each used once), then GET /x402/r/:id with each, one at a time (verify +
// settle + content, the client's signing excluded); GET /health beside it. The 8-payer and live rows are
// bench:x402's (scripts/bench-x402.ts); this one is short enough to compare builds and to profile.
// Settings: BENCH_DURATION (seconds per loop and round, default 8), BENCH_ROUNDS (default 3),
// BENCH_BASELINE (a git revision: its production build runs beside this tree's on its own fresh database, migrated by
// its own migrations, the rounds alternating between the two; the output adds its rows),
// BENCH_CPU_PROF (a directory: each server writes a V8 CPU profile there when it stops),
// BENCH_TRIPS=1 (a counting proxy between each server and PostgreSQL, scripts/lib/pg-round-trips.ts: adds the
// database round trips of one paid request; the proxy costs time, so leave it off for the timings).
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { getHealth, loadAverages, machineLoadLine, resultRow, timedLoop, type LoopRun } from "./lib/bench-loop";
import { baselineBuild } from "./lib/baseline-build";
import { freshBenchDatabase } from "./lib/bench-setup";
import { runChild } from "./lib/child";
import pg from "pg";
import { countRoundTrips, type RoundTripCounter } from "./lib/pg-round-trips";
import { canReadProcessCpu, cpuMsBetween, cpuMsByPid } from "./lib/process-cpu";
import { ROOT } from "./lib/prisma-cli";
import { startServerProcess, type ServerProcess } from "./lib/server-process";

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TRIPS = process.env.BENCH_TRIPS === "1";
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const baselineRef = process.env.BENCH_BASELINE;
const port = Number(process.env.BENCH_PORT ?? 3994);
/** Paid requests whose round trips are counted (BENCH_TRIPS), one at a time. */
const TRIPS_SAMPLE = 100;

interface Target {
  label: string;
  server: ServerProcess;
  /** A connection to the target's database, to find its backends (their CPU per request). */
  db: pg.Client;
  /** CPU milliseconds per paid request of each round: the server process, PostgreSQL's backends. */
  cpu: { server: number; database: number }[];
  trips?: RoundTripCounter;
  paid: (header: string) => Promise<void>;
  presigned: string[];
  runs: { server: LoopRun[]; health: LoopRun[] };
}

/** A merchant made by `root`'s own operator CLI (its database migrated by its own migrations): its test key. */
async function sellerKeyOf(root: string, databaseUrl: string): Promise<string> {
  const cli = ["--import", "tsx", "scripts/merchant-create.ts", "--json", "--name", "x402 bench seller"];
  const made = await runChild(process.execPath, cli, { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, capture: true });
  const last = made.output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .pop();
  if (made.code === 0 && last) return (JSON.parse(last) as { testSecretKey: string }).testSecretKey;
  throw new Error(`merchant:create in ${root} failed:\n${made.output}`);
}

const signer = new x402Client().register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));

async function startTarget(label: string, root: string, databaseUrl: string, targetPort: number): Promise<Target> {
  const sellerKey = await sellerKeyOf(root, databaseUrl);
  const trips = TRIPS ? await countRoundTrips(databaseUrl) : undefined;
  const env = {
    DATABASE_URL: trips?.url ?? databaseUrl,
    CRON_SECRET: "bench",
    RATE_LIMIT_MAX: "1000000000",
    SECRETS_ENCRYPTION_KEY: "33".repeat(32),
  };
  const nodeArgs = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const server = await startServerProcess(targetPort, env, false, nodeArgs, root);
  const created = await fetch(`${server.url}/v1/paid_resources`, {
    method: "POST",
    headers: { Authorization: `Bearer ${sellerKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Bench content", amount: 1, currency: "usd", content: { answer: 42 } }),
  });
  if (created.status !== 201) throw new Error(`create resource: ${created.status} ${await created.text()}`);
  const url = `${server.url}/x402/r/${((await created.json()) as { id: string }).id}`;
  const required = JSON.parse(Buffer.from((await fetch(url)).headers.get("payment-required")!, "base64").toString("utf8"));
  const presigned: string[] = [];
  const needed = (ROUNDS * DURATION + 2) * 300 + (TRIPS ? TRIPS_SAMPLE : 0);
  while (presigned.length < needed)
    presigned.push(Buffer.from(JSON.stringify(await signer.createPaymentPayload(required))).toString("base64"));
  const paid = async (header: string) => {
    const res = await fetch(url, { headers: { "PAYMENT-SIGNATURE": header } });
    if (res.status !== 200) throw new Error(`${label}: pre-signed paid request: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  return { label, server, db, cpu: [], trips, paid, presigned, runs: { server: [], health: [] } };
}

const paidOne = (target: Target) => async () => {
  const header = target.presigned.pop();
  if (!header) throw new Error("out of pre-signed authorizations");
  await target.paid(header);
};

/** The server's and its database backends' CPU per call of `loop` (NaN off Linux). */
async function withCpu(target: Target, loop: () => Promise<LoopRun>): Promise<LoopRun> {
  const backends = async () =>
    (
      await target.db.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
      )
    ).rows.map((row) => row.pid);
  const serverPid = target.server.child.pid!;
  const pids = canReadProcessCpu() ? [serverPid, ...(await backends())] : [];
  const before = cpuMsByPid(pids);
  const run = await loop();
  const after = cpuMsByPid(canReadProcessCpu() ? [serverPid, ...(await backends())] : []);
  const calls = run.times.length || NaN;
  const server = ((after.get(serverPid) ?? NaN) - (before.get(serverPid) ?? NaN)) / calls;
  after.delete(serverPid);
  before.delete(serverPid);
  target.cpu.push({ server, database: cpuMsBetween(before, after) / calls });
  return run;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
const baseline = baselineRef ? await baselineBuild(baselineRef) : undefined;
const targets: Target[] = [];
try {
  if (baseline) targets.push(await startTarget(`before (${baselineRef})`, baseline.root, await database.createEmpty(), port + 1));
  targets.push(await startTarget(baseline ? "after (this tree)" : "this tree", ROOT, database.url, port));
  for (const target of targets) await timedLoop(2, 1, paidOne(target)); // warm-up: JIT, pools, prepared statements
  const loadAtRounds: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    loadAtRounds.push(loadAverages());
    // Alternating which build goes first, so neither always follows the other's writes.
    for (const target of round % 2 ? [...targets].reverse() : targets) {
      target.runs.server.push(await withCpu(target, () => timedLoop(DURATION, 1, paidOne(target))));
      target.runs.health.push(await timedLoop(Math.min(DURATION, 4), 1, () => getHealth(target.server.url)));
    }
  }
  const trips: string[] = [];
  for (const target of targets) {
    if (!target.trips) continue;
    const before = target.trips.count();
    for (let i = 0; i < TRIPS_SAMPLE; i++) await paidOne(target)();
    trips.push(`${target.label}: ${((target.trips.count() - before) / TRIPS_SAMPLE).toFixed(2)}`);
  }
  console.log(`\nx402 server time at one payer: ${ROUNDS} rounds of ${DURATION}s, production build, fresh database`);
  console.log(machineLoadLine(loadBefore, loadAtRounds));
  console.log("| one payer (c=1) | calls/s (per round) | p50 | p99 |\n|---|---:|---:|---:|");
  for (const target of targets) {
    const label = targets.length > 1 ? `${target.label}: ` : "";
    console.log(resultRow(`${label}server time of a paid request: verify + settle + content (pre-signed)`, target.runs.server));
    console.log(resultRow(`${label}GET /health`, target.runs.health));
  }
  console.log(
    "\nCPU per paid request (medians of the rounds; the rest of its time is waiting: on PostgreSQL, the network, the scheduler):",
  );
  for (const target of targets) {
    const [server, database] = [median(target.cpu.map((c) => c.server)), median(target.cpu.map((c) => c.database))];
    console.log(`- ${target.label}: server process ${server.toFixed(2)} ms, PostgreSQL backends ${database.toFixed(2)} ms`);
  }
  if (trips.length) console.log(`\nDB round trips per paid request (one payer, pre-signed): ${trips.join("; ")}`);
} finally {
  for (const target of targets) {
    await target.db.end();
    await target.server.stop();
    await target.trips?.close();
  }
  await database.cleanup();
}
