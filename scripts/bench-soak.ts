// npm run bench:soak: a long run at a fixed share of the create's throughput, to see whether the service
// degrades with time (issue 38: "server RSS and PostgreSQL connections flat, p99 stable").
// Production build on a fresh database, the server set up as in scripts/bench.ts, with `npm start`'s 1 s
// ticker running (so the tick's work happens during the load). The request is bench.ts's `post` case: an
// authenticated POST /v1/customers with a fresh Idempotency-Key each.
//  1. Calibration: autocannon, 32 connections, for SOAK_CALIBRATE_SECONDS (default 15) after a 2 s warm-up
//     -> the maximum req/s.
//  2. Soak: SOAK_RATE_PERCENT (default 80) of that rate (or SOAK_RATE req/s, to compare two runs at the same
//     load), open loop, for SOAK_MINUTES (default 10). Every
//     SOAK_SAMPLE_SECONDS (default 60) one row: requests sent and answered, non-2xx, p50/p99 of the answers,
//     the server's RSS (/proc/<pid>/status VmRSS), the client connections to the bench database
//     (pg_stat_activity, read over a connection to the `postgres` database) and the server's CPU per request,
//     and what PostgreSQL did meanwhile that can pause the requests: checkpoints, and the bench database's
//     tables autovacuum vacuumed or analyzed (read over a connection of the script's own, not counted), and
//     the WAL written (pg_stat_wal, PostgreSQL 14+: MB, full-page images, waits for a full WAL buffer: after a
//     checkpoint begins, the first change of each page writes the whole page); with SOAK_TRACE_GC=1 the
//     server runs with --trace-gc and each row adds its GC pauses (sum, longest, and how many mark-compacts).
//  3. Verdicts, computed: RSS growth from minute 2 to the last sample (the first minute's rows include the
//     warm-up), connections min/max, the median p99 of the first half of the samples against the second half's,
//     the p99's spread over the rows and the whole soak's p99, p99.9 and max, the GC by kind (count, sum, longest,
//     share of the time, heap after a mark-compact), errors. Exits non-zero only on errors.
// SOAK_HEAP_PROFILE=<file>: a sampling heap profile of what the soak's requests leave alive past scavenges (what is
// promoted to the old generation; scripts/lib/heap-profile-preload.mjs), from the soak's start to its end (answers drained),
// written to <file> and summarized by allocation site in bytes per request (scripts/lib/heap-profile-summary.ts).
// SOAK_SERVER_FLAGS: more Node flags for the server, space-separated (e.g. --trace-gc-nvp with SERVER_LOG=1,
// for the bytes each scavenge promotes).
// BENCH_PORT (default 3994).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { loadAverages } from "./lib/bench-loop";
import { postCustomerOptions } from "./lib/bench-requests";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { runChild } from "./lib/child";
import { heapProfileTopSites } from "./lib/heap-profile-summary";
import { cpuMsByPid } from "./lib/process-cpu";
import { startServerProcess } from "./lib/server-process";
import { startTicker } from "./lib/ticker";

const CALIBRATE_SECONDS = Number(process.env.SOAK_CALIBRATE_SECONDS ?? 15);
const RATE_PERCENT = Number(process.env.SOAK_RATE_PERCENT ?? 80);
const FIXED_RATE = process.env.SOAK_RATE ? Number(process.env.SOAK_RATE) : undefined;
const SOAK_MS = Number(process.env.SOAK_MINUTES ?? 10) * 60_000;
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 60) * 1000;
const TRACE_GC = process.env.SOAK_TRACE_GC === "1";
const HEAP_PROFILE = process.env.SOAK_HEAP_PROFILE ? path.resolve(process.env.SOAK_HEAP_PROFILE) : undefined;
const SERVER_FLAGS = (process.env.SOAK_SERVER_FLAGS ?? "").split(" ").filter(Boolean);
const DRAIN_MS = 30_000; // after the last send, answers are awaited this long; later ones count as errors
const CRON = "bench";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const sleepUntil = (t: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, t - performance.now())));

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
const dbName = new URL(database.url).pathname.slice(1);
// The bench merchant's key, made by the operator CLI as bench.ts makes it (the CLI's connections end with it).
const created = await runChild(process.execPath, ["--import", "tsx", "scripts/merchant-create.ts", "--name", "Bench merchant", "--json"], {
  env: { ...process.env, DATABASE_URL: database.url },
  capture: true,
});
const json = created.output.split("\n").findLast((line) => line.startsWith("{"));
if (created.code !== 0 || !json) throw new Error(`merchant:create failed:\n${created.output}`);
const auth = { authorization: `Bearer ${JSON.parse(json).testSecretKey}`, "content-type": "application/json" };
// bench.ts's server environment (the limiter runs but never refuses), plus a key for stored secrets.
const server = await startServerProcess(
  Number(process.env.BENCH_PORT ?? 3994),
  {
    DATABASE_URL: database.url,
    RATE_LIMIT_MAX: "1000000000",
    CRON_SECRET: CRON,
    SECRETS_ENCRYPTION_KEY: "50".repeat(32),
    ...(HEAP_PROFILE ? { HEAP_PROFILE_FILE: HEAP_PROFILE } : {}),
  },
  false,
  [
    ...(TRACE_GC ? ["--trace-gc"] : []),
    ...(HEAP_PROFILE ? ["--import", path.resolve("scripts/lib/heap-profile-preload.mjs")] : []),
    ...SERVER_FLAGS,
  ],
);
const serverPid = server.child.pid!;
const admin = new pg.Client({ connectionString: Object.assign(new URL(database.url), { pathname: "/postgres" }).href });
await admin.connect();
// PostgreSQL's own upkeep during each interval (a stall's suspects), read on the bench database itself.
const STATS_APP = "bench-soak-stats";
const stats = new pg.Client({ connectionString: database.url, application_name: STATS_APP });
await stats.connect();
const stopTicker = startTicker(server.url, CRON);

/** bench.ts's `post` case, through autocannon at 32 connections: its req/s. */
function calibrate(seconds: number): Promise<autocannon.Result> {
  const options = { ...postCustomerOptions(server.url, auth), connections: 32, duration: seconds } as autocannon.Options;
  return new Promise((resolve, reject) => autocannon(options, (err, result) => (err ? reject(err) : resolve(result))));
}

// The soak's own open-loop client rather than autocannon's `overallRate`: autocannon rate-limits closed-loop
// connections (each waits for its answer before sending again; the budget is per connection and per second,
// so requests go out in bursts at each second's start), and when the server stalls the requests that should
// have gone out are never sent, so their wait is never measured (coordinated omission). Here request i is due
// at start + i / rate whatever is still in flight (keep-alive sockets, up to MAX_SOCKETS), and its latency
// runs from that due time to the end of its answer: a stall, or a late client, shows in the percentiles.
const body = JSON.stringify({ name: "bench", email: "bench@example.com" });
// At most MAX_SOCKETS at once: when the server falls behind, later requests wait in the agent's queue (their latency
// still runs from their due time) rather than each opening a socket until the client runs out of file descriptors.
const MAX_SOCKETS = 256;
const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
const interval = { sent: 0, answered: 0, non2xx: 0, errors: 0, latencies: [] as number[] };
let inFlight = 0;
const allLatencies: number[] = [];

function send(due: number) {
  interval.sent++;
  inFlight++;
  let settled = false;
  const done = (status: number) => {
    if (settled) return;
    settled = true;
    inFlight--;
    if (status === 0) interval.errors++;
    else {
      interval.answered++;
      const latency = performance.now() - due;
      interval.latencies.push(latency);
      allLatencies.push(latency);
      if (status < 200 || status > 299) interval.non2xx++;
    }
  };
  const headers = { ...auth, "idempotency-key": randomUUID(), "content-length": String(Buffer.byteLength(body)) };
  const req = http.request(`${server.url}/v1/customers`, { method: "POST", agent, headers }, (res) => {
    res
      .on("end", () => done(res.statusCode ?? 0))
      .on("error", () => done(0))
      .on("close", () => done(0)); // close without end: cut off
    res.resume();
  });
  req.on("error", () => done(0));
  req.end(body);
}

interface Sample {
  minute: number;
  sent: number;
  answered: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  rssMiB: number;
  connections: number;
  cpuMsPerRequest: number;
}

interface Upkeep {
  checkpoints: number;
  /** pg_stat_wal's counters (the whole server's), null before PostgreSQL 14 */
  wal: { bytes: number; fpi: number; buffersFull: number } | null;
  /** table -> autovacuum and autoanalyze runs so far */
  runs: Map<string, number>;
}
let upkeepBefore: Upkeep | null = null;

/** Checkpoints (PostgreSQL 17 counts them in pg_stat_checkpointer, earlier ones in pg_stat_bgwriter) and autovacuum's runs. */
async function readUpkeep(): Promise<Upkeep> {
  const view = (await stats.query("SELECT to_regclass('pg_stat_checkpointer') IS NOT NULL AS v17")).rows[0].v17
    ? "SELECT num_timed + num_requested AS n FROM pg_stat_checkpointer"
    : "SELECT checkpoints_timed + checkpoints_req AS n FROM pg_stat_bgwriter";
  const checkpoints = Number((await stats.query<{ n: string }>(view)).rows[0].n);
  const tables = await stats.query<{ relname: string; n: string }>(
    "SELECT relname, autovacuum_count + autoanalyze_count AS n FROM pg_stat_user_tables",
  );
  const wal = (await stats.query("SELECT to_regclass('pg_stat_wal') IS NOT NULL AS v14")).rows[0].v14
    ? (
        await stats.query<{ bytes: string; fpi: string; full: string }>(
          "SELECT wal_bytes AS bytes, wal_fpi AS fpi, wal_buffers_full AS full FROM pg_stat_wal",
        )
      ).rows[0]
    : null;
  return {
    checkpoints,
    wal: wal && { bytes: Number(wal.bytes), fpi: Number(wal.fpi), buffersFull: Number(wal.full) },
    runs: new Map(tables.rows.map((t) => [t.relname, Number(t.n)])),
  };
}

/** The WAL written since the last sample: "12.3 MB, 1,234 FPI, 0 full" (FPI: full-page images). */
function walBetween(before: Upkeep, now: Upkeep): string {
  if (!before.wal || !now.wal) return "-";
  const mb = (now.wal.bytes - before.wal.bytes) / 1_048_576;
  return `${mb.toFixed(1)} MB, ${(now.wal.fpi - before.wal.fpi).toLocaleString("en")} FPI, ${now.wal.buffersFull - before.wal.buffersFull} full`;
}

// --trace-gc lines: "... ms: Scavenge 61.3 (75.4) -> 55.2 (76.2) MB, 1.12 / 0.00 ms ..." (the heap before and
// after, then the pause and its time off the main thread); a mark-compact's "after" is what the old generation
// still holds. Read from the server's output since the last sample; the whole soak's are kept for the summary.
// An incremental mark-compact adds "(+ 30.1 ms in 200 steps since start of marking, biggest step 1.2 ms, ...)": its
// marking steps, each a short pause of its own, before the final one.
interface GcPause {
  kind: string;
  ms: number;
  heapAfterMB: number;
  /** Incremental marking: the steps' total and the biggest step (0 when none). */
  stepsMs: number;
  biggestStepMs: number;
}
const GC_LINE = /: (Scavenge|Mark-Compact|Minor Mark-Compact)\b.*?-> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \//;
const MARKING_STEPS = /\(\+ ([\d.]+) ms in \d+ steps since start of marking, biggest step ([\d.]+) ms/;
const gcPauses: GcPause[] = [];
let gcOffset = 0;
function gcPausesSince(): string {
  const text = server.output();
  const end = text.lastIndexOf("\n") + 1; // whole lines only: a line still being written is read next time
  const lines = text.slice(gcOffset, end).split("\n");
  gcOffset = Math.max(gcOffset, end);
  const pauses = lines.flatMap((line): GcPause[] => {
    const m = GC_LINE.exec(line);
    if (!m) return [];
    const steps = MARKING_STEPS.exec(line);
    return [
      { kind: m[1], ms: Number(m[3]), heapAfterMB: Number(m[2]), stepsMs: Number(steps?.[1] ?? 0), biggestStepMs: Number(steps?.[2] ?? 0) },
    ];
  });
  gcPauses.push(...pauses);
  const ms = pauses.map((p) => p.ms);
  const markCompacts = pauses.filter((p) => p.kind === "Mark-Compact").length;
  return `${ms.reduce((sum, p) => sum + p, 0).toFixed(0)} / ${Math.max(0, ...ms).toFixed(0)} / ${markCompacts}`;
}

/** The whole soak's GC: pauses by kind (count, sum, longest), their share of the time, the heap after mark-compacts. */
function gcSummary(soakMs: number): string {
  const kinds = [...new Set(gcPauses.map((p) => p.kind))].map((kind) => {
    const ms = gcPauses.filter((p) => p.kind === kind).map((p) => p.ms);
    return `${ms.length} ${kind} (${ms.reduce((a, b) => a + b, 0).toFixed(0)} ms, longest ${Math.max(...ms).toFixed(1)})`;
  });
  const total = gcPauses.reduce((sum, p) => sum + p.ms, 0);
  const markCompacts = gcPauses.filter((p) => p.kind === "Mark-Compact");
  const after = markCompacts.map((p) => p.heapAfterMB);
  const steps = markCompacts.reduce((sum, p) => sum + p.stepsMs, 0);
  const marking = markCompacts.length
    ? `; before them, incremental marking steps ${steps.toFixed(0)} ms (biggest ${Math.max(...markCompacts.map((p) => p.biggestStepMs)).toFixed(1)}); heap after a mark-compact: median ${median(after).toFixed(0)} MB, max ${Math.max(...after).toFixed(0)} MB`
    : "";
  return `${kinds.join(", ") || "none"}: ${((total / soakMs) * 100).toFixed(1)}% of the time in these pauses${marking}`;
}

/** What happened since the last call: "2 checkpoints; autovacuum: customers, idempotency_records", and the WAL. */
async function upkeepSince(): Promise<{ upkeep: string; wal: string }> {
  const now = await readUpkeep();
  const before = upkeepBefore ?? now;
  upkeepBefore = now;
  const tables = [...now.runs].filter(([name, n]) => n > (before.runs.get(name) ?? 0)).map(([name]) => name);
  const checkpoints = now.checkpoints - before.checkpoints;
  const upkeep = [
    checkpoints ? `${checkpoints} checkpoint${checkpoints > 1 ? "s" : ""}` : "",
    tables.length ? `autovacuum: ${tables.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
  return { upkeep, wal: walBetween(before, now) };
}
/** Stops the server's heap profile (SOAK_HEAP_PROFILE) and waits until the file is written: its path. */
async function writeHeapProfile(): Promise<string> {
  const written = `heap profile: written to ${HEAP_PROFILE}`;
  process.kill(serverPid, "SIGUSR2");
  for (const deadline = performance.now() + 120_000; !server.output().includes(written); await sleepUntil(performance.now() + 200))
    if (performance.now() > deadline) throw new Error(`no heap profile:\n${server.output().slice(-2000)}`);
  return HEAP_PROFILE!;
}

const samples: Sample[] = [];
let cpuBefore = 0;
let soakStart = 0;

async function sample(): Promise<void> {
  const { sent, answered, non2xx, errors, latencies } = interval;
  Object.assign(interval, { sent: 0, answered: 0, non2xx: 0, errors: 0, latencies: [] });
  const cpuNow = cpuMsByPid([serverPid]).get(serverPid) ?? NaN;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${serverPid}/status`, "utf8"))?.[1]);
  const { rows } = await admin.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND application_name <> $2",
    [dbName, STATS_APP],
  );
  const { upkeep, wal } = await upkeepSince();
  const gc = TRACE_GC ? ` ${gcPausesSince()} |` : "";
  latencies.sort((a, b) => a - b);
  const s: Sample = {
    minute: (performance.now() - soakStart) / 60_000,
    sent,
    answered,
    non2xx,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rssMiB: rssKb / 1024,
    connections: rows[0].n,
    cpuMsPerRequest: (cpuNow - cpuBefore) / answered,
  };
  cpuBefore = cpuNow;
  samples.push(s);
  console.log(
    `| ${s.minute.toFixed(2)} | ${sent} / ${answered} | ${non2xx} | ${errors} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.rssMiB.toFixed(1)} | ${s.connections} | ${s.cpuMsPerRequest.toFixed(2)} | ${wal} |${gc} ${upkeep || "-"} |`,
  );
}

try {
  await calibrate(2); // warm-up: JIT, connection pools, route compilation
  const calibration = await calibrate(CALIBRATE_SECONDS);
  const rate = FIXED_RATE ?? (calibration.requests.average * RATE_PERCENT) / 100;
  if (!(rate > 0)) throw new Error(`calibration measured no throughput: ${JSON.stringify(calibration.requests)}`);
  console.log(
    `\nSoak: POST /v1/customers (fresh Idempotency-Key), production build, fresh database, 1 s ticker; load average before ${loadBefore}`,
  );
  console.log(
    `Calibration: ${calibration.requests.average.toFixed(0)} req/s over ${CALIBRATE_SECONDS}s at 32 connections (${calibration.non2xx} non-2xx, ${calibration.errors} errors)`,
  );
  const share = FIXED_RATE
    ? `SOAK_RATE, ${((rate / calibration.requests.average) * 100).toFixed(0)}% of the calibration`
    : `${RATE_PERCENT}%`;
  console.log(`Soak: ${rate.toFixed(0)} req/s (${share}), open loop, ${SOAK_MS / 60_000} min, a row every ${SAMPLE_MS / 1000}s\n`);
  console.log(
    "| minute | sent / answered | non-2xx | errors | p50 ms | p99 ms | server RSS MiB | PG connections | server CPU ms/req | WAL written |" +
      (TRACE_GC ? " server GC pauses ms (sum / longest / mark-compacts) |" : "") +
      " PostgreSQL's upkeep |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + (TRACE_GC ? "---:|" : "") + "---|");

  soakStart = performance.now();
  await upkeepSince();
  if (TRACE_GC) gcPausesSince(); // from here on
  cpuBefore = cpuMsByPid([serverPid]).get(serverPid) ?? NaN;
  if (HEAP_PROFILE) process.kill(serverPid, "SIGUSR2"); // starts sampling
  const scheduler = (async () => {
    for (let i = 0; ;) {
      const now = performance.now();
      if (now - soakStart >= SOAK_MS) return;
      for (; soakStart + (i * 1000) / rate <= now; i++) send(soakStart + (i * 1000) / rate);
      await sleepUntil(Math.min(soakStart + (i * 1000) / rate, soakStart + SOAK_MS));
    }
  })();
  for (let t = SAMPLE_MS; t < SOAK_MS; t += SAMPLE_MS) {
    await sleepUntil(soakStart + t);
    await sample();
  }
  await scheduler;
  const drainEnd = performance.now() + DRAIN_MS;
  while (inFlight > 0 && performance.now() < drainEnd) await sleepUntil(performance.now() + 50);
  interval.errors += inFlight; // no answer within the drain
  const heapProfile = HEAP_PROFILE && (await writeHeapProfile());
  await sample(); // the last interval, with the drain

  // RSS from minute 2 on: the first minute's rows include the server's warm-up growth.
  const settled = samples.find((s) => s.minute >= 2 - 1e-6) ?? samples[samples.length - 1];
  const last = samples[samples.length - 1];
  const growth = last.rssMiB - settled.rssMiB;
  const rssAfter = samples.filter((s) => s.minute >= settled.minute).map((s) => s.rssMiB);
  const connections = samples.map((s) => s.connections);
  const half = Math.floor(samples.length / 2); // an odd count leaves the middle sample out
  const p99First = median(samples.slice(0, half).map((s) => s.p99));
  const p99Second = median(samples.slice(samples.length - half).map((s) => s.p99));
  const non2xx = samples.reduce((sum, s) => sum + s.non2xx, 0);
  const errors = samples.reduce((sum, s) => sum + s.errors, 0);
  console.log(
    `\nRSS: ${settled.rssMiB.toFixed(1)} MiB at minute ${settled.minute.toFixed(2)}, ${last.rssMiB.toFixed(1)} at the last sample: ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MiB (${((growth / settled.rssMiB) * 100).toFixed(1)}%); from there on ${Math.min(...rssAfter).toFixed(1)}-${Math.max(...rssAfter).toFixed(1)} MiB`,
  );
  console.log(`PostgreSQL connections to the bench database: min ${Math.min(...connections)}, max ${Math.max(...connections)}`);
  console.log(
    `p99, median of the samples: first half ${p99First.toFixed(1)} ms, second half ${p99Second.toFixed(1)} ms (${((p99Second / p99First) * 100).toFixed(0)}%)`,
  );
  // How steady the p99 is: its spread over the rows, and the whole soak's tail, every answer together.
  const p99s = samples.map((s) => s.p99).sort((a, b) => a - b);
  const p99Median = median(p99s);
  const spiky = p99s.filter((p) => p > 2 * p99Median).length;
  console.log(
    `p99 of the rows: min ${p99s[0].toFixed(1)}, median ${p99Median.toFixed(1)}, 90th percentile ${percentile(p99s, 90).toFixed(1)}, max ${p99s[p99s.length - 1].toFixed(1)} ms; ${spiky} of ${p99s.length} rows above twice the median`,
  );
  allLatencies.sort((a, b) => a - b);
  console.log(
    `Every answer of the soak: p50 ${percentile(allLatencies, 50).toFixed(1)}, p99 ${percentile(allLatencies, 99).toFixed(1)}, p99.9 ${percentile(allLatencies, 99.9).toFixed(1)}, max ${allLatencies[allLatencies.length - 1].toFixed(1)} ms`,
  );
  if (TRACE_GC) console.log(`Server GC: ${gcSummary(performance.now() - soakStart)}`);
  const sentTotal = samples.reduce((sum, s) => sum + s.sent, 0);
  console.log(`Errors: ${non2xx} non-2xx, ${errors} without an answer, of ${sentTotal} sent`);
  console.log(`Load average after: ${loadAverages()}`);
  if (heapProfile) console.log(`\n${heapProfileTopSites(heapProfile, sentTotal).join("\n")}`);
  if (non2xx + errors + calibration.non2xx + calibration.errors > 0) process.exitCode = 1;
} finally {
  stopTicker();
  agent.destroy();
  await admin.end();
  await stats.end();
  await server.stop();
  await database.cleanup();
}
