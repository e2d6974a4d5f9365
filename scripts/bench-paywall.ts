// npm run bench:paywall: the single-use paywall's service round trip, as a merchant's server makes it for
// every paid call, on a production build and a fresh database. Two ways, measured in the same run:
//  - two requests: verify (SDK serviceBackend -> POST /v1/paywall/verify) then consume (SDK
//    serviceConsumedStore -> POST /v1/paywall/redemptions), what paywall() does with any other store;
//  - one request: paywallHttp() with serviceBackend + serviceConsumedStore of the same service and key,
//    which verifies and redeems in one call (POST /v1/paywall/redemptions with the terms).
//  1. Database round trips per request of each kind, counted by a proxy in front of PostgreSQL (one each: the
//     route's statement runs inside the API-key statement, docs/paywall.md "Cost per paid call"). This phase has a
//     server of its own, started with DATABASE_URL on the proxy and stopped after: the timed phases below run on
//     a second server connected to PostgreSQL directly, as /health's figures (which never touch the database) are.
//  2. Timed loops, interleaved in BENCH_ROUNDS rounds (default 2): BENCH_CONCURRENCY (default 16) workers,
//     each paying with a fresh paid PaymentIntent after the other, for BENCH_DURATION seconds (default 10)
//     per loop -> paid calls/s, p50/p99; then GET /health baselines.
//  3. One caller: BENCH_ONE_CALLER_CALLS (default 1,000) calls of each way below, one at a time, interleaved in
//     blocks of 100 -> p50/p99, the paid call's p50 as a multiple of /health's, and the CPU each way costs per call
//     (this process, the server, PostgreSQL's backends: /proc). The ways split the paid call's time:
//     GET /health; the paid call through paywallHttp; the same POST /v1/paywall/redemptions sent by a bare fetch
//     (the SDK's own work is the difference), then with Accept-Encoding: identity (the answer's gzip, which the
//     server applies to every answer it streams, and the gunzip here); GET /health with Accept-Encoding: identity;
//     the route's one statement sent from this process (the server's authentication step called here: the
//     database's share, its commit included); and a bare SELECT 1 (the round trip to PostgreSQL alone).
// BENCH_CPU_PROF (a directory): the timed phases' server writes a V8 CPU profile there when it stops.
// The paid PaymentIntents are one real payment (POST /v1/paywall/pay) cloned in SQL: verify and redeem
// read only that row, and paying thousands through the rail first would dwarf the run.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { getHealth, loadAverages, machineLoadLine, oneCallerRuns, resultRow, timedLoop, type LoopRun } from "./lib/bench-loop";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { countRoundTrips } from "./lib/pg-round-trips";
import { canReadProcessCpu, cpuMsByPid } from "./lib/process-cpu";
import { startServerProcess, type ServerProcess } from "./lib/server-process";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 60_000);
const ONE_CALLER_CALLS = Number(process.env.BENCH_ONE_CALLER_CALLS ?? 1_000);
const PORT = Number(process.env.BENCH_PORT ?? 3997);
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const SAMPLE = 200;
const SKU = "bench_tool";
const PRICE = 25;
const SERVER_ENV = { CRON_SECRET: "bench", RATE_LIMIT_MAX: "1000000000" };

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
// This process calls the server's authentication step itself (the one-caller table's database row): same limits.
Object.assign(process.env, { DATABASE_URL: database.url, RATE_LIMIT_MAX: SERVER_ENV.RATE_LIMIT_MAX });
const { getDb, transaction, closeDb, sql, statement } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");
const { byApiKey } = await import("../lib/http/authenticate");
const { redemptionQuery } = await import("../lib/paywall/redeem-payment");
const { ServiceClient, paywallHttp, serviceBackend, serviceConsumedStore } = await import("agent-payments-sdk");
const counter = await countRoundTrips(database.url);
let server: ServerProcess = await startServerProcess(PORT, { ...SERVER_ENV, DATABASE_URL: counter.url });
const probe = new pg.Client({ connectionString: database.url });
await probe.connect();

try {
  const seller = await transaction((tx) => createMerchant(tx, { name: "Bench seller" }));
  const payer = await transaction((tx) => createMerchant(tx, { name: "Bench agent" }));
  const terms = { merchantId: seller.merchantId, amount: PRICE, currency: "USD", sku: SKU };
  const paid = await new ServiceClient({ baseUrl: server.url, apiKey: payer.testSecretKey }).paywall.pay({
    ...terms,
    paymentMethod: "pm_card_visa",
  });
  await getDb().$executeRaw`
    INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, payment_method, sku, payer_merchant_id, captured_at, source, created_at, updated_at)
    SELECT 'pi_bench' || lpad(g::text, 16, '0'), merchant_id, livemode, status, amount, amount_captured, currency, payment_method, sku, payer_merchant_id, captured_at, source, now(), now()
      FROM payment_intents, generate_series(1, ${PAYMENTS}) g WHERE id = ${paid.paymentIntentId}`;
  let next = 0;
  const nextPayment = () => {
    if (next >= PAYMENTS) throw new Error("out of paid PaymentIntents: raise BENCH_PAYMENTS");
    return `pi_bench${String(++next).padStart(16, "0")}`;
  };

  /** The paid calls of each way, made to the server at `baseUrl`. */
  const paidCalls = (baseUrl: string) => {
    const sdk = { baseUrl, apiKey: seller.testSecretKey };
    const backend = serviceBackend(sdk);
    const consumed = serviceConsumedStore({ ...sdk, merchantId: seller.merchantId });
    const client = new ServiceClient(sdk);
    const verifyOne = async (paymentIntentId: string) => {
      const verdict = await backend.verify({ paymentIntentId, ...terms });
      if (!verdict.valid) throw new Error(`verify: ${JSON.stringify(verdict)}`);
    };
    const redeemOne = async (paymentIntentId: string) => {
      if (!(await consumed.consume(paymentIntentId))) throw new Error("consume: not the first redemption");
    };
    // The whole paid call through the SDK's HTTP paywall: with this store and backend, one request.
    const paywalled = paywallHttp({ backend, consumed, merchantId: seller.merchantId, price: PRICE, currency: "USD", sku: SKU })(
      () => new Response("ok"),
    );
    const paidCall = async (paymentIntentId: string) => {
      const res = await paywalled(new Request("http://bench.local/tool", { headers: { "x-service-payment": paymentIntentId } }));
      if (res.status !== 200) throw new Error(`paid call: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    // The request paywallHttp sends, by a bare fetch: its headers and body, the answer read but not parsed.
    const rawHeaders = {
      accept: "application/json",
      authorization: `Bearer ${seller.testSecretKey}`,
      "user-agent": "agent-payments-sdk",
      "content-type": "application/json",
    };
    const rawPost = async (paymentIntentId: string, encoding?: string) => {
      const res = await fetch(`${baseUrl}/v1/paywall/redemptions`, {
        method: "POST",
        headers: { ...rawHeaders, "idempotency-key": `sdk_${randomUUID()}`, ...(encoding ? { "accept-encoding": encoding } : {}) },
        body: JSON.stringify({ paymentIntentId, ...terms }),
      });
      if (res.status !== 201) throw new Error(`raw redemption: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    const verifyAndRedeem = (paymentIntentId: string) => client.paywall.verifyAndRedeem({ paymentIntentId, ...terms });
    const twoRequests = async (paymentIntentId: string) => {
      await verifyOne(paymentIntentId);
      await redeemOne(paymentIntentId);
    };
    return { verifyOne, redeemOne, consumed, paidCall, rawPost, verifyAndRedeem, twoRequests };
  };

  // Phase 1, on the server behind the counting proxy: warm-up (JIT, route code, pools), then round trips of sequential calls.
  let calls = paidCalls(server.url);
  for (let i = 0; i < 100; i++) {
    await calls.twoRequests(nextPayment());
    await calls.paidCall(nextPayment());
  }
  const perCall = async (work: (pi: string) => Promise<unknown>, ids: string[]) => {
    const before = counter.count();
    for (const id of ids) await work(id);
    return (counter.count() - before) / ids.length;
  };
  const sampleIds = Array.from({ length: SAMPLE }, nextPayment);
  const verifyTrips = await perCall(calls.verifyOne, sampleIds);
  const redeemTrips = await perCall(calls.redeemOne, sampleIds);
  const repeatTrips = await perCall(async (pi) => {
    if (await calls.consumed.consume(pi)) throw new Error("a repeat redemption won");
  }, sampleIds);
  const combinedIds = Array.from({ length: SAMPLE }, nextPayment);
  const combinedTrips = await perCall(async (pi) => {
    const outcome = await calls.verifyAndRedeem(pi);
    if (!outcome.redeemed) throw new Error(`verifyAndRedeem: ${JSON.stringify(outcome)}`);
  }, combinedIds);
  const combinedRepeatTrips = await perCall(async (pi) => {
    if ((await calls.verifyAndRedeem(pi)).redeemed) throw new Error("a repeat redemption won");
  }, combinedIds);
  await server.stop();
  await counter.close();

  // Phase 2: a second server on PostgreSQL directly, for every timed figure.
  const nodeArgs = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
  server = await startServerProcess(PORT + 1, { ...SERVER_ENV, DATABASE_URL: database.url }, false, nodeArgs);
  calls = paidCalls(server.url);
  const { twoRequests, paidCall, rawPost } = calls;
  // Each iteration is one paid call of the next payment (or the baseline's health requests).
  const loop = (seconds: number, call: (pi: string) => Promise<void>) => timedLoop(seconds, CONCURRENCY, () => call(nextPayment()));
  const health = () => getHealth(server.url);
  // /health as a client that takes no gzip asks for it: the server gzips every answer it streams, even /health's.
  const healthIdentity = async () => {
    const res = await fetch(`${server.url}/health`, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`health: ${res.status}`);
    await res.arrayBuffer();
  };
  const twoHealth = async () => {
    await health();
    await health();
  };
  await loop(2, twoRequests);
  await loop(2, paidCall);
  const runs = { two: [] as LoopRun[], one: [] as LoopRun[] };
  const loadAtRounds: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    loadAtRounds.push(loadAverages());
    runs.two.push(await loop(DURATION, twoRequests));
    runs.one.push(await loop(DURATION, paidCall));
  }
  const baselineTwo = await loop(Math.min(DURATION, 5), twoHealth);
  const baselineOne = await loop(Math.min(DURATION, 5), health);

  // The route's statement as the server runs it, from this process: the authentication step with the route's query.
  const sellerAuth = { authorization: `Bearer ${seller.testSecretKey}` };
  const statementOnly = async () => {
    const req = new Request(`${server.url}/v1/paywall/redemptions`, { method: "POST", headers: sellerAuth });
    const route = redemptionQuery({ paymentIntentId: nextPayment(), ...terms }, `sdk_${randomUUID()}`);
    const { row } = await byApiKey(req, new Headers(), undefined, ["paywall", "write"] as const, route);
    if (!(row as { inserted: boolean }).inserted) throw new Error("statement: not inserted");
  };
  const SELECT_ONE = statement("bench_select_one", "SELECT 1");
  const selectOne = async () => {
    await sql().rows(SELECT_ONE, []);
  };
  const oneCaller = [
    { label: "GET /health", call: health },
    { label: "one request: paywallHttp, verify-and-redeem", call: () => paidCall(nextPayment()) },
    {
      label: "the same POST /v1/paywall/redemptions, bare fetch (no SDK; fetch's own Accept-Encoding: gzip)",
      call: () => rawPost(nextPayment()),
    },
    { label: "the same, bare fetch, Accept-Encoding: identity (nothing gzipped)", call: () => rawPost(nextPayment(), "identity") },
    { label: "GET /health, Accept-Encoding: identity (nothing gzipped)", call: healthIdentity },
    { label: "its database statement alone, sent from the bench process (commit included)", call: statementOnly },
    { label: "SELECT 1 from the bench process (a round trip to PostgreSQL)", call: selectOne },
  ];
  for (const way of oneCaller) for (let i = 0; i < 50; i++) await way.call();
  const meter = canReadProcessCpu() ? () => cpuByPart(probe, server.child.pid!) : undefined;
  const oneCallerRun = await oneCallerRuns(
    ONE_CALLER_CALLS,
    100,
    oneCaller.map((way) => way.call),
    meter,
  );

  console.log(
    `\nPaywall benchmark: ${ROUNDS} rounds of ${DURATION}s per way, ${CONCURRENCY} concurrent callers, production build, fresh database`,
  );
  console.log(machineLoadLine(loadBefore, loadAtRounds));
  console.log("| paid call | calls/s (per round) | p50 | p99 |");
  console.log("|---|---:|---:|---:|");
  console.log(resultRow("two requests: verify, then redeem", runs.two));
  console.log(resultRow("one request: paywallHttp, verify-and-redeem", runs.one));
  console.log(resultRow("baseline: two GET /health", [baselineTwo]));
  console.log(resultRow("baseline: one GET /health", [baselineOne]));
  const callsPerSecond = (rounds: LoopRun[]) =>
    rounds.reduce((sum, r) => sum + r.times.length, 0) / rounds.reduce((sum, r) => sum + r.seconds, 0);
  console.log(
    `\nPaid calls/s at ${CONCURRENCY} callers: ${((100 * callsPerSecond(runs.one)) / callsPerSecond([baselineOne])).toFixed(0)}% of one GET /health's (target: at least 70%)`,
  );
  console.log(
    `\n| one caller (${ONE_CALLER_CALLS} calls each, interleaved) | calls/s | p50 | p99 | CPU per call: bench process / server / PostgreSQL |`,
  );
  console.log("|---|---:|---:|---:|---:|");
  for (const [i, way] of oneCaller.entries()) console.log(`${resultRow(way.label, [oneCallerRun[i]])} ${cpuCell(oneCallerRun[i])} |`);
  const p50 = (run: LoopRun) =>
    percentile(
      [...run.times].sort((a, b) => a - b),
      50,
    );
  console.log(
    `\nPaid call p50 at one caller: ${(p50(oneCallerRun[1]) / p50(oneCallerRun[0])).toFixed(2)}x GET /health's (target: at most 1.5x); ` +
      `${(p50(oneCallerRun[1]) / p50(oneCallerRun[4])).toFixed(2)}x that of GET /health taking no gzip`,
  );
  console.log("\n| DB round trips per request (a server of its own, behind a counting proxy) | value |");
  console.log("|---|---:|");
  console.log(`| verify | ${verifyTrips.toFixed(2)} |`);
  console.log(`| redemption (first) | ${redeemTrips.toFixed(2)} |`);
  console.log(`| redemption (already_redeemed) | ${repeatTrips.toFixed(2)} |`);
  console.log(`| verify-and-redeem (first) | ${combinedTrips.toFixed(2)} |`);
  console.log(`| verify-and-redeem (already_redeemed) | ${combinedRepeatTrips.toFixed(2)} |`);
} finally {
  await probe.end();
  await closeDb();
  await server.stop();
  await counter.close().catch(() => undefined);
  await database.cleanup();
}

/** CPU ms so far of this process ("bench"), the server ("server") and each client backend of the bench database ("pg <pid>", the probe's own left out). */
async function cpuByPart(db: pg.Client, serverPid: number): Promise<Map<string, number>> {
  const { rows } = await db.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
  );
  const cpu = cpuMsByPid([process.pid, serverPid, ...rows.map((r) => r.pid)]);
  const parts = new Map<string, number>();
  for (const [pid, ms] of cpu) parts.set(pid === process.pid ? "bench" : pid === serverPid ? "server" : `pg ${pid}`, ms);
  return parts;
}

function cpuCell(run: LoopRun): string {
  if (!run.cpuMs) return "n/a";
  let postgres = 0;
  for (const [part, ms] of run.cpuMs) if (part.startsWith("pg ")) postgres += ms;
  const per = (ms: number | undefined) => ((ms ?? NaN) / run.times.length).toFixed(2);
  return `${per(run.cpuMs.get("bench"))} / ${per(run.cpuMs.get("server"))} / ${per(postgres)} ms`;
}
