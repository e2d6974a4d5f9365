// npm run bench: request-pipeline throughput on a production build and a fresh database.
// Measures a trivial route (/health), an authenticated read (GET /v1/customers/:id), an authenticated,
// rate-limited, idempotent create (POST /v1/customers with a fresh Idempotency-Key per request), and an API sale:
// a checkout opened and captured with the test card (two requests per sale; the ledger posting and its running
// balances included).
// The cases run in interleaved rounds (health, get, post, health, get, post, ...) and the table reports each
// case's median round, so a burst of load from elsewhere on a shared machine skews one round, not a case.
// Not in the default set (BENCH_ONLY names them), a sale by a shared payment token, two requests each (the payer mints
// with its own key, the merchant redeems with its key: open, charge, capture, post), through the spending-policy check
// or not (docs/spending-policies.md, scripts/lib/bench-spending.ts): `spt` (the token names no agent: no check),
// `spt-policy` (every token names ONE spending agent whose policy evaluates every rule and counts a daily budget: all
// callers' charges update that agent's one budget counter row, a hot row held until each capture commits: the real
// cost of "concurrent charges never pass a budget"), `spt-policy-spread` (the same policy on BENCH_SPT_AGENTS agents,
// default BENCH_CONNECTIONS, named in turn: one row each). Counts printed after the table prove the checks ran.
// With the capture or an spt case, a one-caller table follows: GET /health against a capture alone and a redemption
// alone, with and without the check (scripts/lib/bench-one-caller.ts).
// Settings: BENCH_DURATION (seconds per case and round, default 10), BENCH_ROUNDS (default 3),
// BENCH_CONNECTIONS (default 32), BENCH_ONLY (comma-separated case ids: health,get,post,capture, which are the
// default set, and spt,spt-policy,spt-policy-spread), BENCH_SPT_AGENTS (agents of spt-policy-spread),
// BENCH_CPU_PROF (a directory: the server writes a V8 CPU profile there when it stops),
// BENCH_BASELINE (a git revision: its production build runs beside this tree's, on its own fresh database
// migrated by its own migrations, in the same rounds, each case alternating between the two; the output adds
// its table and the after/before ratios), BENCH_TRIPS=1 (a counting proxy between each server and PostgreSQL,
// scripts/lib/pg-round-trips.ts: the one-caller table adds the database round trips of one capture; the proxy costs
// time, so leave it off for the timings).
// On Linux it also reports the CPU time per request of the server process and of the PostgreSQL backends
// serving the bench database: unlike req/s, these barely move with the load of other work on the machine.
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { baselineBuild } from "./lib/baseline-build";
import { oneCallerTable, type SptSeller } from "./lib/bench-one-caller";
import { postCustomerOptions } from "./lib/bench-requests";
import { freshBenchDatabase } from "./lib/bench-setup";
import { benchPolicy, createSpendingAgent, pgQuery, spendingCounts } from "./lib/bench-spending";
import { runChild } from "./lib/child";
import { countRoundTrips, type RoundTripCounter } from "./lib/pg-round-trips";
import { canReadProcessCpu, cpuMsBetween, cpuMsByPid } from "./lib/process-cpu";
import { ROOT } from "./lib/prisma-cli";
import { startServerProcess, type ServerProcess } from "./lib/server-process";

const duration = Number(process.env.BENCH_DURATION ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const port = Number(process.env.BENCH_PORT ?? 3999);
const only = process.env.BENCH_ONLY?.split(",");
const DEFAULT_CASES = ["health", "get", "post", "capture"];
const SPT_CASES = ["spt", "spt-policy", "spt-policy-spread"];
const selected = (id: string) => (only ? only.includes(id) : DEFAULT_CASES.includes(id));
const sptAgentCount = Number(process.env.BENCH_SPT_AGENTS ?? connections);
/** The amount of every bench sale (minor units, USD). */
const SALE_AMOUNT = 1250;
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const baselineRef = process.env.BENCH_BASELINE;
const countTrips = process.env.BENCH_TRIPS === "1";

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

/** One build under test: its server, its database (through `db`, whose own backend is not counted) and its cases. */
interface Target {
  label: string;
  server: ServerProcess;
  db: pg.Client;
  cases: Case[];
  figures: Map<string, Figures[]>;
  /** The merchant's test key as request headers. */
  auth: Record<string, string>;
  /** The spt cases' payer and agents (set only when one of them runs). */
  spt?: SptSetup;
  /** The round-trip counter between the server and PostgreSQL (BENCH_TRIPS). */
  trips?: RoundTripCounter;
}

/** The spt cases' payer (another merchant), the payee (the bench merchant) and the payer's spending agents. */
interface SptSetup extends SptSeller {
  /** All the agents: the first is the one agent of spt-policy; spt-policy-spread names each in turn. */
  agentIds: string[];
}

function autocannonRun(bench: Case, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration: seconds, ...bench.options } as autocannon.Options, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A sale by a shared payment token, two requests on one connection: the payer mints a token for the merchant (naming
 * the agent `agentFor` gives, if any), then the merchant redeems it (one transaction: open, policy check, charge,
 * capture, ledger posting, events).
 */
function sptSale(
  url: string,
  auth: Record<string, string>,
  spt: SptSetup,
  agentFor: () => string | undefined,
): Partial<autocannon.Options> {
  type Context = { tokenId?: string };
  return {
    url,
    headers: auth,
    requests: [
      {
        method: "POST",
        path: "/v1/shared_payment_tokens",
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, ...spt.payerAuth, "idempotency-key": randomUUID() },
          body: JSON.stringify({
            paymentMethod: "pm_card_visa",
            maxAmount: SALE_AMOUNT,
            currency: "usd",
            merchantId: spt.payeeMerchantId,
            spendingAgentId: agentFor(),
          }),
        }),
        onResponse: (status, body, context) => {
          // A failed mint (counted as non-2xx) leaves no token: the redemption then answers 404, counted too.
          (context as Context).tokenId = status === 201 ? (JSON.parse(body) as { id: string }).id : "spt_none";
        },
      },
      {
        method: "POST",
        setupRequest: (req, context) => ({
          ...req,
          path: `/v1/shared_payment_tokens/${(context as Context).tokenId}/redeem`,
          headers: { ...req.headers, "idempotency-key": randomUUID() },
          body: JSON.stringify({ amount: SALE_AMOUNT, currency: "usd", description: "bench" }),
        }),
      },
    ],
  };
}

function sptCases(url: string, auth: Record<string, string>, spt: SptSetup): Case[] {
  let turn = 0;
  const sale = "POST /v1/shared_payment_tokens (payer) + POST /v1/shared_payment_tokens/:id/redeem (merchant)";
  return [
    { id: "spt", name: `${sale}: token naming no agent (no policy check)`, options: sptSale(url, auth, spt, () => undefined) },
    {
      id: "spt-policy",
      name: `${sale}: every token naming ONE spending agent (policy checked, one budget row for all callers)`,
      options: sptSale(url, auth, spt, () => spt.agentIds[0]),
    },
    {
      id: "spt-policy-spread",
      name: `${sale}: tokens naming ${spt.agentIds.length} spending agents in turn (policy checked, a budget row each)`,
      options: sptSale(url, auth, spt, () => spt.agentIds[turn++ % spt.agentIds.length]),
    },
  ];
}

function benchCases(url: string, auth: Record<string, string>, customerId: string, spt?: SptSetup): Case[] {
  const cases: Case[] = [
    { id: "health", name: "GET /health (trivial route)", options: { url: `${url}/health` } },
    {
      id: "get",
      name: "GET /v1/customers/:id (auth + rate limit + read)",
      options: { url: `${url}/v1/customers/${customerId}`, headers: auth },
    },
    {
      id: "post",
      name: "POST /v1/customers (auth + rate limit + idempotency + write)",
      options: postCustomerOptions(url, auth),
    },
    {
      // An API capture: the checkout opened, then paid with the test card (two requests, one sale: each counted).
      id: "capture",
      name: "POST /v1/checkouts + POST /v1/checkouts/:id/capture (open, then charge, capture and post)",
      options: {
        url,
        headers: auth,
        requests: [
          {
            method: "POST",
            path: "/v1/checkouts",
            setupRequest: (req) => ({
              ...req,
              headers: { ...req.headers, "idempotency-key": randomUUID() },
              body: JSON.stringify({ amount: 1250, currency: "usd", description: "bench" }),
            }),
            onResponse: (_status, body, context) => {
              (context as { checkoutId?: string }).checkoutId = (JSON.parse(body) as { id: string }).id;
            },
          },
          {
            method: "POST",
            setupRequest: (req, context) => ({
              ...req,
              path: `/v1/checkouts/${(context as { checkoutId?: string }).checkoutId}/capture`,
              headers: { ...req.headers, "idempotency-key": randomUUID() },
              body: JSON.stringify({ paymentMethod: "pm_card_visa" }),
            }),
          },
        ],
      },
    },
    ...(spt ? sptCases(url, auth, spt) : []),
  ];
  return cases.filter((bench) => selected(bench.id));
}

/** A merchant and its test key, made by the tree's own operator CLI (which first applies the tree's migrations). */
async function benchMerchant(
  root: string,
  databaseUrl: string,
  name = "Bench merchant",
): Promise<{ merchantId: string; testSecretKey: string }> {
  const { code, output } = await runChild(process.execPath, ["--import", "tsx", "scripts/merchant-create.ts", "--name", name, "--json"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    capture: true,
  });
  const json = output.split("\n").findLast((line) => line.startsWith("{"));
  if (code !== 0 || !json) throw new Error(`merchant:create in ${root} failed:\n${output}`);
  return JSON.parse(json);
}

/** The spt cases' payer merchant and its agents, each with the bench policy (paying only the bench merchant). */
async function sptSetup(root: string, databaseUrl: string, serverUrl: string, payeeMerchantId: string): Promise<SptSetup> {
  const payer = await benchMerchant(root, databaseUrl, "Bench payer");
  const policy = benchPolicy(payeeMerchantId, "spt", SALE_AMOUNT);
  const count = selected("spt-policy-spread") ? Math.max(1, sptAgentCount) : 1;
  const agentIds: string[] = [];
  for (let i = 0; i < count; i++)
    agentIds.push(await createSpendingAgent(serverUrl, payer.testSecretKey, { name: `bench agent ${i + 1}`, policy }));
  const payerAuth = { authorization: `Bearer ${payer.testSecretKey}`, "content-type": "application/json" };
  return { payerAuth, payeeMerchantId, agentId: agentIds[0], agentIds };
}

// The limiter runs on every request but never refuses: its cost is measured, not its policy.
async function startTarget(label: string, root: string, databaseUrl: string, targetPort: number): Promise<Target> {
  const merchant = await benchMerchant(root, databaseUrl);
  const secretKey = merchant.testSecretKey;
  const trips = countTrips ? await countRoundTrips(databaseUrl) : undefined;
  const serverEnv = { DATABASE_URL: trips?.url ?? databaseUrl, RATE_LIMIT_MAX: "1000000000", CRON_SECRET: "bench" };
  const nodeArgs = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const server = await startServerProcess(targetPort, serverEnv, false, nodeArgs, root);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const auth = { authorization: `Bearer ${secretKey}`, "content-type": "application/json" };
  const customer = await (
    await fetch(`${server.url}/v1/customers`, { method: "POST", headers: auth, body: JSON.stringify({ name: "bench" }) })
  ).json();
  const spt = SPT_CASES.some(selected) ? await sptSetup(root, databaseUrl, server.url, merchant.merchantId) : undefined;
  const cases = benchCases(server.url, auth, customer.id, spt);
  return { label, server, db, cases, figures: new Map(cases.map((bench) => [bench.id, []])), auth, spt, trips };
}

const measureCpu = canReadProcessCpu();

async function processIds(target: Target): Promise<number[]> {
  if (!measureCpu) return [];
  const { rows } = await target.db.query<{ pid: number }>(
    // Client backends only: an autovacuum worker on the bench database is the tables' upkeep, not the requests' cost.
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
  );
  return [target.server.child.pid!, ...rows.map((r) => r.pid)];
}

async function run(target: Target, bench: Case, seconds: number): Promise<Figures> {
  const serverPid = target.server.child.pid!;
  const before = cpuMsByPid(await processIds(target));
  const result = await autocannonRun(bench, seconds);
  const after = cpuMsByPid(await processIds(target));
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

function medianOf(target: Target, id: string) {
  const runs = target.figures.get(id)!;
  return {
    reqPerSec: median(runs.map((r) => r.reqPerSec)),
    serverCpuMs: median(runs.map((r) => r.serverCpuMs)),
    dbCpuMs: median(runs.map((r) => r.dbCpuMs)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    perRound: runs.map((r) => r.reqPerSec.toFixed(0)).join(" / "),
    dbCpuPerRound: runs.map((r) => r.dbCpuMs.toFixed(2)).join(" / "),
  };
}

/** The bucket table's update counters: HOT updates stay on the row's page and add no index entries. */
async function bucketStats(target: Target): Promise<string> {
  const { rows } = await target.db.query(
    `SELECT n_tup_upd, n_tup_hot_upd, n_dead_tup, pg_total_relation_size(relid) AS bytes
       FROM pg_stat_user_tables WHERE relname = 'rate_limit_buckets'`,
  );
  const s = rows[0];
  return `rate_limit_buckets: ${s.n_tup_upd} updates, ${s.n_tup_hot_upd} HOT, ${s.n_dead_tup} dead tuples, ${Math.round(s.bytes / 1024)} KB with indexes`;
}

function printTable(target: Target) {
  const trivial = target.cases[0].id === "health" ? medianOf(target, "health").reqPerSec : NaN;
  console.log(
    "| case | req/s (median) | req/s per round | vs trivial | p50 ms | p99 ms | server CPU ms/req | Postgres CPU ms/req | per round | non-2xx | errors |",
  );
  console.log("|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|");
  for (const bench of target.cases) {
    const r = medianOf(target, bench.id);
    const ratio = `${((r.reqPerSec / trivial) * 100).toFixed(0)}%`;
    console.log(
      `| ${bench.name} | ${r.reqPerSec.toFixed(0)} | ${r.perRound} | ${ratio} | ${r.p50} | ${r.p99} | ${r.serverCpuMs.toFixed(2)} | ${r.dbCpuMs.toFixed(2)} | ${r.dbCpuPerRound} | ${r.non2xx} | ${r.errors} |`,
    );
  }
}

function printComparison(before: Target, after: Target) {
  console.log(
    "| case | req/s before -> after | after / before | server CPU ms/req before -> after | Postgres CPU ms/req before -> after |",
  );
  console.log("|---|---:|---:|---:|---:|");
  for (const bench of after.cases) {
    const [b, a] = [medianOf(before, bench.id), medianOf(after, bench.id)];
    console.log(
      `| ${bench.name} | ${b.reqPerSec.toFixed(0)} -> ${a.reqPerSec.toFixed(0)} | ${((a.reqPerSec / b.reqPerSec) * 100).toFixed(0)}% | ` +
        `${b.serverCpuMs.toFixed(2)} -> ${a.serverCpuMs.toFixed(2)} | ${b.dbCpuMs.toFixed(2)} -> ${a.dbCpuMs.toFixed(2)} |`,
    );
  }
}

const database = await freshBenchDatabase();
const baseline = baselineRef ? await baselineBuild(baselineRef) : undefined;
const targets: Target[] = [];
try {
  if (baseline) targets.push(await startTarget(`baseline ${baselineRef}`, baseline.root, await database.createEmpty(), port + 1));
  targets.push(await startTarget(baseline ? "this tree" : "", ROOT, database.url, port));
  const caseIndexes = targets[0].cases.map((_, i) => i);

  // Warm-up: JIT, connection pools, route compilation.
  for (const i of caseIndexes) for (const target of targets) await run(target, target.cases[i], 2);
  const loads: number[] = [];
  for (let round = 0; round < rounds; round++) {
    loads.push(loadavg()[0]);
    const order = round % 2 ? [...targets].reverse() : targets; // neither build always goes first
    for (const i of caseIndexes)
      for (const target of order) target.figures.get(target.cases[i].id)!.push(await run(target, target.cases[i], duration));
  }
  loads.push(loadavg()[0]);

  console.log(
    `\nRequest pipeline benchmark: ${rounds} interleaved rounds of ${duration}s per case${baseline ? " and build" : ""}, ${connections} connections, production build, fresh database`,
  );
  console.log(`Load average (1 min) at each round's start and at the end: ${loads.map((l) => l.toFixed(2)).join(", ")}`);
  for (const target of targets) {
    console.log(target.label ? `\n${target.label}:\n` : "");
    printTable(target);
    console.log(`\n${await bucketStats(target)}`);
    if (target.spt) console.log(await spendingCounts(pgQuery(target.db), "spt"));
    const capture = target.cases.some((bench) => bench.id === "capture");
    if (capture || target.spt) {
      console.log(`\nOne caller (${duration}s each):\n`);
      const ways = { capture, spt: target.spt, trips: target.trips?.count };
      for (const line of await oneCallerTable(target.server.url, target.auth, duration, ways)) console.log(line);
    }
  }
  if (baseline) {
    console.log(`\nAfter (this tree) against before (${baselineRef}, ${baseline.commit.slice(0, 12)}), medians:\n`);
    printComparison(targets[0], targets[1]);
  }
} finally {
  for (const target of targets) {
    await target.db.end();
    await target.server.stop();
    await target.trips?.close();
  }
  await database.cleanup();
}
