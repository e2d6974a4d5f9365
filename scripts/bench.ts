// npm run bench: request-pipeline throughput on a production build and a fresh database.
// Measures a trivial route (/health), an authenticated read (GET /v1/customers/:id) and an authenticated,
// rate-limited, idempotent create (POST /v1/customers with a fresh Idempotency-Key per request).
// The cases run in interleaved rounds (health, get, post, health, get, post, ...) and the table reports each
// case's median round, so a burst of load from elsewhere on a shared machine skews one round, not a case.
// Settings: BENCH_DURATION (seconds per case and round, default 10), BENCH_ROUNDS (default 3),
// BENCH_CONNECTIONS (default 32), BENCH_ONLY (comma-separated case ids: health,get,post),
// BENCH_CPU_PROF (a directory: the server writes a V8 CPU profile there when it stops).
// On Linux it also reports the CPU time per request of the server process and of the PostgreSQL backends
// serving the bench database: unlike req/s, these barely move with the load of other work on the machine.
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { freshBenchDatabase } from "./lib/bench-setup";
import { canReadProcessCpu, cpuMsBetween, cpuMsByPid } from "./lib/process-cpu";
import { startServerProcess } from "./lib/server-process";

const duration = Number(process.env.BENCH_DURATION ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const port = Number(process.env.BENCH_PORT ?? 3999);
const only = process.env.BENCH_ONLY?.split(",");
const cpuProfileDir = process.env.BENCH_CPU_PROF;

interface Case {
  id: string;
  name: string;
  options: Partial<autocannon.Options>;
}

interface Figures {
  reqPerSec: number;
  /** CPU milliseconds per request of the server and of the database backends (NaN where unknown). */
  serverCpuMs: number;
  dbCpuMs: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function autocannonRun(url: string, bench: Case, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, ...bench.options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const database = await freshBenchDatabase();
const databaseUrl = database.url;

// The limiter runs on every request but never refuses: its cost is measured, not its policy.
const serverEnv: Record<string, string> = { DATABASE_URL: databaseUrl, RATE_LIMIT_MAX: "1000000000", CRON_SECRET: "bench" };
const nodeArgs = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
const server = await startServerProcess(port, serverEnv, false, nodeArgs);
process.env.DATABASE_URL = databaseUrl;
const { transaction, closeDb } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");
try {
  const merchant = await transaction((tx) => createMerchant(tx, { name: "Bench merchant" }));
  const auth = { authorization: `Bearer ${merchant.testSecretKey}`, "content-type": "application/json" };
  const customer = await (
    await fetch(`${server.url}/v1/customers`, { method: "POST", headers: auth, body: JSON.stringify({ name: "bench" }) })
  ).json();

  const allCases: Case[] = [
    { id: "health", name: "GET /health (trivial route)", options: { url: `${server.url}/health` } },
    {
      id: "get",
      name: "GET /v1/customers/:id (auth + rate limit + read)",
      options: { url: `${server.url}/v1/customers/${customer.id}`, headers: auth },
    },
    {
      id: "post",
      name: "POST /v1/customers (auth + rate limit + idempotency + write)",
      options: {
        url: `${server.url}/v1/customers`,
        method: "POST",
        headers: auth,
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              headers: { ...req.headers, "idempotency-key": randomUUID() },
              body: JSON.stringify({ name: "bench", email: "bench@example.com" }),
            }),
          },
        ],
      },
    },
  ];
  const cases = allCases.filter((bench) => !only || only.includes(bench.id));

  const measureCpu = canReadProcessCpu();
  const { getPool } = await import("../lib/db");
  const dbBackendPids = async () =>
    (
      await getPool().query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      )
    ).rows.map((r) => r.pid);
  const serverPid = server.child.pid!;

  async function run(bench: Case, seconds: number): Promise<Figures> {
    const pids = measureCpu ? [serverPid, ...(await dbBackendPids())] : [];
    const before = cpuMsByPid(pids);
    const result = await autocannonRun(server.url, bench, seconds);
    const after = cpuMsByPid(measureCpu ? [serverPid, ...(await dbBackendPids())] : []);
    const perRequest = (ms: number) => (measureCpu && result.requests.total ? ms / result.requests.total : NaN);
    const serverMs = (after.get(serverPid) ?? NaN) - (before.get(serverPid) ?? NaN);
    after.delete(serverPid);
    return {
      reqPerSec: result.requests.average,
      serverCpuMs: perRequest(serverMs),
      dbCpuMs: perRequest(cpuMsBetween(before, after)),
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  }

  for (const bench of cases) await run(bench, 2); // warm-up: JIT, connection pools, route compilation
  const figures = new Map<string, Figures[]>(cases.map((bench) => [bench.id, []]));
  const loads: number[] = [];
  for (let round = 0; round < rounds; round++) {
    loads.push(loadavg()[0]);
    for (const bench of cases) figures.get(bench.id)!.push(await run(bench, duration));
  }
  loads.push(loadavg()[0]);

  const medianOf = (id: string) => {
    const runs = figures.get(id)!;
    return {
      reqPerSec: median(runs.map((r) => r.reqPerSec)),
      serverCpuMs: median(runs.map((r) => r.serverCpuMs)),
      dbCpuMs: median(runs.map((r) => r.dbCpuMs)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      perRound: runs.map((r) => r.reqPerSec.toFixed(0)).join(" / "),
    };
  };
  const trivial = cases[0].id === "health" ? medianOf("health").reqPerSec : NaN;
  console.log(
    `\nRequest pipeline benchmark: ${rounds} interleaved rounds of ${duration}s per case, ${connections} connections, production build, fresh database`,
  );
  console.log(`Load average (1 min) at each round's start and at the end: ${loads.map((l) => l.toFixed(2)).join(", ")}\n`);
  console.log(
    "| case | req/s (median) | req/s per round | vs trivial | p50 ms | p99 ms | server CPU ms/req | Postgres CPU ms/req | non-2xx | errors |",
  );
  console.log("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const bench of cases) {
    const r = medianOf(bench.id);
    const ratio = `${((r.reqPerSec / trivial) * 100).toFixed(0)}%`;
    console.log(
      `| ${bench.name} | ${r.reqPerSec.toFixed(0)} | ${r.perRound} | ${ratio} | ${r.p50} | ${r.p99} | ${r.serverCpuMs.toFixed(2)} | ${r.dbCpuMs.toFixed(2)} | ${r.non2xx} | ${r.errors} |`,
    );
  }
} finally {
  await closeDb();
  await server.stop();
  await database.cleanup();
}
