// npm run bench:paywall: the single-use paywall's service round trip, as a merchant's server makes it for
// every paid call: verify (SDK serviceBackend -> POST /v1/paywall/verify) then consume (SDK
// serviceConsumedStore -> POST /v1/paywall/redemptions), on a production build and a fresh database.
//  1. Database round trips per verify and per redemption, counted by a proxy in front of PostgreSQL.
//  2. A timed loop: BENCH_CONCURRENCY (default 16) workers, each verify+redeem of a fresh paid
//     PaymentIntent after the other, for BENCH_DURATION seconds (default 10) -> pairs/s, p50/p99.
// The paid PaymentIntents are one real payment (POST /v1/paywall/pay) cloned in SQL: verify and redeem
// read only that row, and paying thousands through the rail first would dwarf the run.
import os from "node:os";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { countRoundTrips } from "./lib/pg-round-trips";
import { startServerProcess } from "./lib/server-process";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 30_000);
const SAMPLE = 200;
const SKU = "bench_tool";
const PRICE = 25;

const loadBefore = os.loadavg();
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
const { ServiceClient, serviceBackend, serviceConsumedStore } = await import("../lib/sdk");

try {
  const seller = await transaction((tx) => createMerchant(tx, { name: "Bench seller" }));
  const payer = await transaction((tx) => createMerchant(tx, { name: "Bench agent" }));
  const terms = { merchantId: seller.merchantId, amount: PRICE, currency: "USD", sku: SKU };
  const paid = await new ServiceClient({ baseUrl: server.url, apiKey: payer.testSecretKey }).paywall.pay({ ...terms, paymentMethod: "pm_card_visa" });
  await getDb().$executeRaw`
    INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, payment_method, sku, payer_merchant_id, captured_at, created_at, updated_at)
    SELECT 'pi_bench' || lpad(g::text, 16, '0'), merchant_id, livemode, status, amount, amount_captured, currency, payment_method, sku, payer_merchant_id, captured_at, now(), now()
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

  // Warm-up (JIT, route code, connection pools), then count round trips of sequential calls.
  for (let i = 0; i < 100; i++) {
    const pi = nextPayment();
    await verifyOne(pi);
    await redeemOne(pi);
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

  // `first` and `second` are the two requests of one paid call; the baseline runs two GET /health instead.
  const loop = async (seconds: number, first: (pi: string) => Promise<void>, second: (pi: string) => Promise<void>) => {
    const pairs: number[] = [];
    const firsts: number[] = [];
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          const pi = nextPayment();
          const t0 = performance.now();
          await first(pi);
          const t1 = performance.now();
          await second(pi);
          firsts.push(t1 - t0);
          pairs.push(performance.now() - t0);
        }
      }),
    );
    return { pairs: pairs.sort((a, b) => a - b), verifies: firsts.sort((a, b) => a - b), seconds };
  };
  const health = async () => {
    const res = await fetch(`${server.url}/health`);
    if (!res.ok) throw new Error(`health: ${res.status}`);
    await res.arrayBuffer();
  };
  await loop(2, verifyOne, redeemOne);
  const run = await loop(DURATION, verifyOne, redeemOne);
  const baseline = await loop(Math.min(DURATION, 5), health, health);
  const ms = (value: number) => value.toFixed(1);

  console.log(`\nPaywall verify+redeem benchmark: ${DURATION}s, ${CONCURRENCY} concurrent callers, production build, fresh database`);
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(", ");
  console.log(`machine load (1, 5, 15 min averages; ${os.cpus().length} cores): before ${load(loadBefore)}, after ${load(os.loadavg())}\n`);
  console.log("| measure | value |");
  console.log("|---|---:|");
  console.log(`| verify+redeem pairs/s (paid calls/s) | ${(run.pairs.length / run.seconds).toFixed(0)} |`);
  console.log(`| verify+redeem p50 | ${ms(percentile(run.pairs, 50))} ms |`);
  console.log(`| verify+redeem p99 | ${ms(percentile(run.pairs, 99))} ms |`);
  console.log(`| verify alone p50 / p99 | ${ms(percentile(run.verifies, 50))} / ${ms(percentile(run.verifies, 99))} ms |`);
  console.log(`| baseline: two GET /health per iteration, p50 / p99 (pairs/s) | ${ms(percentile(baseline.pairs, 50))} / ${ms(percentile(baseline.pairs, 99))} ms (${(baseline.pairs.length / baseline.seconds).toFixed(0)}) |`);
  console.log(`| DB round trips per verify | ${verifyTrips.toFixed(2)} |`);
  console.log(`| DB round trips per redemption (first) | ${redeemTrips.toFixed(2)} |`);
  console.log(`| DB round trips per repeat redemption (already_redeemed) | ${repeatTrips.toFixed(2)} |`);
} finally {
  await closeDb();
  await server.stop();
  await counter.close();
  await database.cleanup();
}
