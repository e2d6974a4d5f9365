// npm run bench:paywall: the single-use paywall's service round trip, as a merchant's server makes it for
// every paid call, on a production build and a fresh database. Two ways, measured in the same run:
//  - two requests: verify (SDK serviceBackend -> POST /v1/paywall/verify) then consume (SDK
//    serviceConsumedStore -> POST /v1/paywall/redemptions), what paywall() does with any other store;
//  - one request: paywallHttp() with serviceBackend + serviceConsumedStore of the same service and key,
//    which verifies and redeems in one call (POST /v1/paywall/redemptions with the terms).
//  1. Database round trips per request of each kind, counted by a proxy in front of PostgreSQL (one each: the
//     route's statement runs inside the API-key statement, docs/paywall.md "Cost per paid call").
//  2. Timed loops, interleaved in BENCH_ROUNDS rounds (default 2): BENCH_CONCURRENCY (default 16) workers,
//     each paying with a fresh paid PaymentIntent after the other, for BENCH_DURATION seconds (default 10)
//     per loop -> paid calls/s, p50/p99; then GET /health baselines.
//  3. One caller: BENCH_ONE_CALLER_CALLS (default 1,000) one-request paid calls and as many GET /health, one at a
//     time, interleaved in blocks of 100 -> p50/p99 and the paid call's p50 as a multiple of /health's.
// The paid PaymentIntents are one real payment (POST /v1/paywall/pay) cloned in SQL: verify and redeem
// read only that row, and paying thousands through the rail first would dwarf the run.
import { getHealth, loadAverages, machineLoadLine, oneCallerRuns, resultRow, timedLoop, type LoopRun } from "./lib/bench-loop";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { countRoundTrips } from "./lib/pg-round-trips";
import { startServerProcess } from "./lib/server-process";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 60_000);
const ONE_CALLER_CALLS = Number(process.env.BENCH_ONE_CALLER_CALLS ?? 1_000);
const SAMPLE = 200;
const SKU = "bench_tool";
const PRICE = 25;

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
const counter = await countRoundTrips(database.url);
const server = await startServerProcess(Number(process.env.BENCH_PORT ?? 3997), {
  DATABASE_URL: counter.url,
  CRON_SECRET: "bench",
  RATE_LIMIT_MAX: "1000000000",
});
process.env.DATABASE_URL = database.url;
const { getDb, transaction, closeDb } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");
const { ServiceClient, paywallHttp, serviceBackend, serviceConsumedStore } = await import("agent-payments-sdk");

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

  const sdk = { baseUrl: server.url, apiKey: seller.testSecretKey };
  const backend = serviceBackend(sdk);
  const consumed = serviceConsumedStore({ ...sdk, merchantId: seller.merchantId });
  const verifyOne = async (paymentIntentId: string) => {
    const verdict = await backend.verify({ paymentIntentId, merchantId: seller.merchantId, amount: PRICE, currency: "USD", sku: SKU });
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
  const client = new ServiceClient(sdk);
  const combinedOne = async (paymentIntentId: string) => {
    const outcome = await client.paywall.verifyAndRedeem({
      paymentIntentId,
      merchantId: seller.merchantId,
      amount: PRICE,
      currency: "USD",
      sku: SKU,
    });
    if (!outcome.redeemed) throw new Error(`verifyAndRedeem: ${JSON.stringify(outcome)}`);
  };
  const twoRequests = async (paymentIntentId: string) => {
    await verifyOne(paymentIntentId);
    await redeemOne(paymentIntentId);
  };

  // Warm-up (JIT, route code, connection pools), then count round trips of sequential calls.
  for (let i = 0; i < 100; i++) {
    await twoRequests(nextPayment());
    await paidCall(nextPayment());
  }
  const perCall = async (work: (pi: string) => Promise<void>, ids: string[]) => {
    const before = counter.count();
    for (const id of ids) await work(id);
    return (counter.count() - before) / ids.length;
  };
  const sampleIds = Array.from({ length: SAMPLE }, nextPayment);
  const verifyTrips = await perCall(verifyOne, sampleIds);
  const redeemTrips = await perCall(redeemOne, sampleIds);
  const repeatTrips = await perCall(async (pi) => {
    if (await consumed.consume(pi)) throw new Error("a repeat redemption won");
  }, sampleIds);
  const combinedIds = Array.from({ length: SAMPLE }, nextPayment);
  const combinedTrips = await perCall(combinedOne, combinedIds);
  const combinedRepeatTrips = await perCall(async (pi) => {
    const outcome = await client.paywall.verifyAndRedeem({
      paymentIntentId: pi,
      merchantId: seller.merchantId,
      amount: PRICE,
      currency: "USD",
      sku: SKU,
    });
    if (outcome.redeemed) throw new Error("a repeat redemption won");
  }, combinedIds);

  // Each iteration is one paid call of the next payment (or the baseline's health requests).
  const loop = (seconds: number, call: (pi: string) => Promise<void>) => timedLoop(seconds, CONCURRENCY, () => call(nextPayment()));
  const health = () => getHealth(server.url);
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
  const [oneCallerHealth, oneCallerPaid] = await oneCallerRuns(ONE_CALLER_CALLS, 100, [health, () => paidCall(nextPayment())]);

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
  console.log(`\n| one caller (${ONE_CALLER_CALLS} calls each, interleaved) | calls/s | p50 | p99 |`);
  console.log("|---|---:|---:|---:|");
  console.log(resultRow("GET /health", [oneCallerHealth]));
  console.log(resultRow("one request: paywallHttp, verify-and-redeem", [oneCallerPaid]));
  const p50 = (run: LoopRun) =>
    percentile(
      [...run.times].sort((a, b) => a - b),
      50,
    );
  console.log(
    `\nPaid call p50 at one caller: ${(p50(oneCallerPaid) / p50(oneCallerHealth)).toFixed(2)}x GET /health's (target: at most 1.5x)`,
  );
  console.log("\n| DB round trips per request | value |");
  console.log("|---|---:|");
  console.log(`| verify | ${verifyTrips.toFixed(2)} |`);
  console.log(`| redemption (first) | ${redeemTrips.toFixed(2)} |`);
  console.log(`| redemption (already_redeemed) | ${repeatTrips.toFixed(2)} |`);
  console.log(`| verify-and-redeem (first) | ${combinedTrips.toFixed(2)} |`);
  console.log(`| verify-and-redeem (already_redeemed) | ${combinedRepeatTrips.toFixed(2)} |`);
} finally {
  await closeDb();
  await server.stop();
  await counter.close();
  await database.cleanup();
}
