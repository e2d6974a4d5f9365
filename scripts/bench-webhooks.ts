// npm run bench:webhooks: the webhook sender on a production build and a fresh database, delivering to a
// local keep-alive receiver that answers 200 at once. Both sending paths in one run, each on its own server
// process:
//  - wake: the long-running server's own sender, woken by each commit (WEBHOOK_WAKE_ON_COMMIT on, the
//    default of `npm start`), with npm start's 1 s ticker as the backstop;
//  - tick: the cron tick alone (WEBHOOK_WAKE_ON_COMMIT=0, as on a serverless host), 1 s ticker.
// For each: (1) throughput: BENCH_EVENTS (default 3000) events committed in one transaction, drained (wake:
// by the sender on its own; tick: by back-to-back ticks) -> deliveries/s, the first delivery's arrival after the
// INSERT began, and the server's CPU per delivery;
// (2) latency: BENCH_CAPTURES (default 200) real captures through the API, spread over the tick's phase ->
// capture response to receiver p50/p99 of order.paid.
// BENCH_PROFILE=1 writes a V8 CPU profile of each server (.data/bench-profiles/) and prints its top functions.
// BENCH_BASELINE=<git revision>: that revision's production build (scripts/lib/baseline-build.ts) is measured
// too, on a database of its own migrated by its own code, BENCH_RUNS times (default 1; 3 with a baseline)
// interleaved with this tree's (the order flips every run); BENCH_PATHS=wake (or tick) measures one path only.
// BENCH_TRIPS=1 puts a counting proxy between the servers and PostgreSQL (scripts/lib/pg-round-trips.ts) and
// reports database round trips per delivery (the proxy costs CPU: leave it off for the throughput figure).
// Besides the server's CPU per delivery, PostgreSQL's (its backends serving the bench database) is reported:
// both share the machine's 2 cores, so together they bound deliveries/s.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { availableParallelism, loadavg } from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { baselineBuild } from "./lib/baseline-build";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { runChild } from "./lib/child";
import { ROOT } from "./lib/prisma-cli";
import { countRoundTrips } from "./lib/pg-round-trips";
import { cpuMsBetween, cpuMsByPid } from "./lib/process-cpu";
import { startServerProcess } from "./lib/server-process";
import { startTicker } from "./lib/ticker";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const CAPTURES = Number(process.env.BENCH_CAPTURES ?? 200);
const PROFILE = process.env.BENCH_PROFILE === "1";
const TRIPS = process.env.BENCH_TRIPS === "1";
const BASELINE = process.env.BENCH_BASELINE;
const RUNS = Number(process.env.BENCH_RUNS ?? (BASELINE ? 3 : 1));
const PATHS = (process.env.BENCH_PATHS ?? "wake,tick").split(",") as ("wake" | "tick")[];
const CRON = "bench-cron";
/**
 * One endpoint of one merchant receives everything here: the endpoint's in-flight cap is the bench's
 * concurrency (default 128), and the merchant's cap the same (its default, 64, would halve it).
 */
const ENDPOINT_CONCURRENCY = process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? "128";
const MERCHANT_CONCURRENCY = process.env.WEBHOOK_MERCHANT_CONCURRENCY ?? ENDPOINT_CONCURRENCY;

const arrivals = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (!arrivals.has(event.id)) arrivals.set(event.id, performance.now());
    res.writeHead(200).end();
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const database = await freshBenchDatabase();
process.env.DATABASE_URL = database.url;

/** A build to measure: this tree, or the baseline's (its own root and database). */
interface Target {
  label: string;
  root: string;
  databaseUrl: string;
}

/** A merchant made by the target's own operator CLI (which first applies that tree's migrations). */
async function targetMerchant(target: Target, name: string): Promise<{ merchantId: string; testSecretKey: string }> {
  const args = ["--import", "tsx", "scripts/merchant-create.ts", "--name", name, "--json"];
  const env = { ...process.env, DATABASE_URL: target.databaseUrl };
  const { code, output } = await runChild(process.execPath, args, { cwd: target.root, env, capture: true });
  const json = output.split("\n").findLast((line) => line.startsWith("{"));
  if (code !== 0 || !json) throw new Error(`merchant:create in ${target.root} failed:\n${output}`);
  return JSON.parse(json);
}

interface PathResult {
  name: string;
  build: string;
  perSecond: number;
  /** From the events' INSERT to the first delivery's arrival: the fan-out and the first claim hold it up. */
  firstMs: number;
  cpuMsPerDelivery: number;
  pgCpuMsPerDelivery: number;
  /** The bench's own process: the receiver (and the bench's light polling). */
  receiverCpuMsPerDelivery: number;
  tripsPerDelivery?: number;
  p50: number;
  p99: number;
  captures: number;
  /** The throughput drain's window on the monotonic clock (µs), to cut the CPU profile to it. */
  window: [number, number];
}

const profileRoot = path.join(import.meta.dirname, "..", ".data", "bench-profiles");

/** PIDs of the PostgreSQL backends connected to a bench database (PostgreSQL runs on this machine). */
async function backendPids(databaseUrl: string): Promise<number[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows.map((r) => r.pid);
  } finally {
    await db.end();
  }
}

async function measure(name: "wake" | "tick", port: number, target: Target, run: number): Promise<PathResult> {
  arrivals.clear();
  const proxy = TRIPS ? await countRoundTrips(target.databaseUrl) : null;
  const profileDir = profileDirOf(name, target, run);
  if (PROFILE) {
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
  }
  const server = await startServerProcess(
    port,
    {
      DATABASE_URL: proxy?.url ?? target.databaseUrl,
      CRON_SECRET: CRON,
      RATE_LIMIT_MAX: "1000000000",
      SECRETS_ENCRYPTION_KEY: "33".repeat(32),
      WEBHOOK_WAKE_ON_COMMIT: name === "wake" ? "1" : "0",
      WEBHOOK_ENDPOINT_CONCURRENCY: ENDPOINT_CONCURRENCY,
      WEBHOOK_MERCHANT_CONCURRENCY: MERCHANT_CONCURRENCY,
    },
    false,
    PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
    target.root,
  );
  const post = (p: string, key: string, body: unknown) =>
    fetch(`${server.url}${p}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const tick = () => fetch(`${server.url}/api/cron/tick`, { headers: { authorization: `Bearer ${CRON}` } }).then((r) => r.json());
  try {
    const merchant = await targetMerchant(target, `Bench merchant (${name}, run ${run + 1})`);
    const key = merchant.testSecretKey;
    await post("/v1/webhook-endpoints", key, { url: receiverUrl });

    // 1. Throughput: EVENTS events in one commit.
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    const cpuBefore = cpuMsByPid([server.child.pid!]).get(server.child.pid!) ?? 0;
    const pgBefore = cpuMsByPid(await backendPids(target.databaseUrl));
    const tripsBefore = proxy?.count() ?? 0;
    const ownBefore = process.cpuUsage();
    const startedAt = performance.now();
    const windowFrom = Number(process.hrtime.bigint() / 1000n);
    await client.query(
      `INSERT INTO events (id, merchant_id, livemode, type, data, created_at)
       SELECT 'evt_bench' || $3 || $4 || '_' || g, $1, false, 'order.paid', jsonb_build_object('object', jsonb_build_object('id', 'ord_bench' || g, 'object', 'order', 'amount', 1000 + g, 'currency', 'usd', 'status', 'paid')), now()
         FROM generate_series(1, $2::int) g`,
      [merchant.merchantId, EVENTS, name, run],
    );
    await client.end();
    if (name === "tick") while (arrivals.size < EVENTS) await tick();
    else while (arrivals.size < EVENTS) await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = (performance.now() - startedAt) / 1000;
    const firstMs = Math.min(...arrivals.values()) - startedAt;
    const windowTo = Number(process.hrtime.bigint() / 1000n);
    const cpuMs = (cpuMsByPid([server.child.pid!]).get(server.child.pid!) ?? 0) - cpuBefore;
    const own = process.cpuUsage(ownBefore);
    const trips = (proxy?.count() ?? 0) - tripsBefore;
    const pgCpuMs = cpuMsBetween(pgBefore, cpuMsByPid(await backendPids(target.databaseUrl)));

    // 2. Capture to receiver, with npm start's 1 s ticker running.
    arrivals.clear();
    const stopTicker = startTicker(server.url, CRON);
    const capturedAt = new Map<string, number>();
    const events = new Map<string, string>(); // order id -> event id, read from the receiver's side
    for (let i = 0; i < CAPTURES; i++) {
      const checkout = await post("/v1/checkouts", key, { amount: 1000 + i, currency: "usd" });
      const order = await post(`/v1/checkouts/${checkout.id}/capture`, key, { paymentMethod: "pm_card_visa" });
      capturedAt.set(order.id, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 37)); // spread captures across the tick's phase
    }
    const db = new pg.Client({ connectionString: target.databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ id: string; order_id: string }>(
      `SELECT id, data->'object'->>'id' AS order_id FROM events WHERE merchant_id = $1 AND type = 'order.paid' AND id NOT LIKE 'evt_bench%'`,
      [merchant.merchantId],
    );
    await db.end();
    for (const row of rows) if (capturedAt.has(row.order_id)) events.set(row.order_id, row.id);
    const deadline = Date.now() + 30_000;
    while ([...events.values()].some((id) => !arrivals.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    stopTicker();
    const latencies = [...events]
      .filter(([, id]) => arrivals.has(id))
      .map(([orderId, id]) => arrivals.get(id)! - capturedAt.get(orderId)!)
      .sort((a, b) => a - b);
    return {
      name,
      build: target.label,
      window: [windowFrom, windowTo],
      perSecond: EVENTS / seconds,
      firstMs,
      cpuMsPerDelivery: cpuMs / EVENTS,
      pgCpuMsPerDelivery: pgCpuMs / EVENTS,
      receiverCpuMsPerDelivery: (own.user + own.system) / 1000 / EVENTS,
      tripsPerDelivery: proxy ? trips / EVENTS : undefined,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      captures: latencies.length,
    };
  } finally {
    if (PROFILE && server.child.exitCode === null) {
      // The profile is written at exit: give the server's own 5 s shutdown its time (stop() SIGKILLs at 5 s).
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      server.child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    }
    await server.stop();
    await proxy?.close();
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  startTime: number;
  timeDeltas: number[];
}

/** Where a sample's time goes, by the first area found walking its stack from the leaf up. */
const AREAS: [string, RegExp][] = [
  ["signing (HMAC)", /signWebhookPayload|createHmac|Hmac/],
  ["fan-out (lib/webhooks/fan-out)", /fanOutEvents|fanOutAll/],
  ["claim (SQL + rows)", /claimDue/],
  ["recording outcomes (SQL)", /recordOutcomes/],
  ["Prisma client", /@prisma\/client/],
  ["pg driver (parse, serialise)", /node_modules\/pg/],
  [
    "HTTP client to the receiver (undici, or node:http before it)",
    /sendSignedPost|undici|wasm|_http_client|_http_outgoing|_http_common|_http_agent/,
  ],
  ["socket I/O (receiver or PostgreSQL)", /node:net|writev|writeBuffer|onStreamRead/],
  ["JSON", /JSON|stringify|parse/],
];

/**
 * The V8 CPU profile of `dir`, restricted to samples between `fromUs` and `toUs` (monotonic clock, the
 * profile's own): the top self-time functions and the share of each area (inclusive, first match up the stack).
 */
function profileReport(dir: string, fromUs: number, toUs: number, n = 15): string {
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) return "(no profile written)";
  const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (frame: CpuProfile["nodes"][number]["callFrame"]) =>
    `${frame.functionName || "(anonymous)"} ${frame.url
      .replace(/^.*node_modules\//, "")
      .replace(/^.*\.next\//, ".next/")
      .replace(/^file:\/\/.*\/lib\//, "lib/")}:${frame.lineNumber}`;
  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    total++;
    const leaf = byId.get(profile.samples[i])!;
    if (leaf.callFrame.functionName === "(idle)") idle++;
    self.set(label(leaf.callFrame), (self.get(label(leaf.callFrame)) ?? 0) + 1);
    let area = leaf.callFrame.functionName === "(idle)" ? "idle" : leaf.callFrame.functionName === "(garbage collector)" ? "GC" : "other";
    if (area === "other") {
      for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
        const text = `${byId.get(id)!.callFrame.functionName} ${byId.get(id)!.callFrame.url}`;
        const found = AREAS.find(([, pattern]) => pattern.test(text));
        if (found) {
          area = found[0];
          break;
        }
      }
    }
    areas.set(area, (areas.get(area) ?? 0) + 1);
  }
  if (total === 0) return "(no samples in the window)";
  const share = (count: number) => `${((100 * count) / total).toFixed(1).padStart(5)}%`;
  const busy = total - idle;
  return [
    `  ${total} samples, ${share(idle).trim()} idle. By area (inclusive, of all samples; busy = ${busy}):`,
    ...[...areas].sort((a, b) => b[1] - a[1]).map(([area, count]) => `  ${share(count)}  ${area}`),
    `  Top functions (self time):`,
    ...[...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => `  ${share(count)}  ${name}`),
  ].join("\n");
}

function profileDirOf(name: string, target: Target, run: number): string {
  return path.join(profileRoot, BASELINE || RUNS > 1 ? `${name}-${target.label.replace(/\W+/g, "-")}-${run + 1}` : name);
}

const loadBefore = loadavg()
  .map((n) => n.toFixed(2))
  .join(" / ");
try {
  const port = Number(process.env.BENCH_PORT ?? 3998);
  const targets: Target[] = [{ label: BASELINE ? "this tree" : "", root: ROOT, databaseUrl: database.url }];
  if (BASELINE) {
    const baseline = await baselineBuild(BASELINE);
    targets.unshift({
      label: `${BASELINE} (${baseline.commit.slice(0, 7)})`,
      root: baseline.root,
      databaseUrl: await database.createEmpty(),
    });
  }
  const results: PathResult[] = [];
  const runs: [PathResult, number][] = [];
  for (let run = 0; run < RUNS; run++)
    for (const target of run % 2 ? [...targets].reverse() : targets)
      for (const [i, name] of PATHS.entries()) {
        const result = await measure(name, port + i, target, run);
        results.push(result);
        runs.push([result, run]);
      }
  console.log(
    `\nWebhook sender benchmark: production build, fresh database, one local keep-alive receiver answering 200 at once (WEBHOOK_ENDPOINT_CONCURRENCY=${ENDPOINT_CONCURRENCY}, WEBHOOK_MERCHANT_CONCURRENCY=${MERCHANT_CONCURRENCY})\n`,
  );
  console.log(
    `load average before: ${loadBefore}, after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" / ")} (${availableParallelism()} cores)\n`,
  );
  console.log(
    (targets.length > 1 ? "| build " : "") +
      "| path | deliveries/s (" +
      EVENTS +
      " events, one commit) | first delivery | server CPU per delivery | PostgreSQL CPU per delivery | receiver CPU per delivery | CPU bound on 2 idle cores |" +
      (TRIPS ? " DB round trips per delivery |" : "") +
      " capture-to-receiver p50 | p99 | captures |",
  );
  console.log((targets.length > 1 ? "|---" : "") + "|---|---:|---:|---:|---:|---:|---:|" + (TRIPS ? "---:|" : "") + "---:|---:|---:|");
  // "CPU bound": 2 cores' worth of CPU divided by the three processes' CPU per delivery: the deliveries/s
  // the machine could reach if nothing else ran on it and the pipeline never waited.
  for (const r of results) {
    console.log(
      (targets.length > 1 ? `| ${r.build} ` : "") +
        `| ${r.name === "wake" ? "wake on commit (npm start)" : "cron tick only (serverless)"} | ${r.perSecond.toFixed(0)} | ${r.firstMs.toFixed(0)} ms | ${r.cpuMsPerDelivery.toFixed(3)} ms | ${r.pgCpuMsPerDelivery.toFixed(3)} ms | ${r.receiverCpuMsPerDelivery.toFixed(3)} ms | ${(2000 / (r.cpuMsPerDelivery + r.pgCpuMsPerDelivery + r.receiverCpuMsPerDelivery)).toFixed(0)}/s |` +
        (TRIPS ? ` ${r.tripsPerDelivery!.toFixed(3)} |` : "") +
        ` ${r.p50.toFixed(0)} ms | ${r.p99.toFixed(0)} ms | ${r.captures} |`,
    );
  }
  if (PROFILE)
    for (const [r, run] of runs) {
      const target = targets.find((t) => t.label === r.build)!;
      const title = `${r.name} server${r.build ? ` of ${r.build}, run ${run + 1}` : ""}`;
      console.log(
        `\nCPU profile of the ${title} over the throughput drain:\n${profileReport(profileDirOf(r.name, target, run), ...r.window)}`,
      );
    }
} finally {
  receiver.close();
  await database.cleanup();
}
