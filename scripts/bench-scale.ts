// npm run bench:scale: whether a merchant's reads stay flat as its history grows (docs/BENCHMARKS.md, "Scale").
// A production build on a fresh database; one merchant among others gets history in steps (generated in SQL:
// captured PaymentIntents with their two ledger legs each, so every step adds 2 entries per payment, and an order
// and an event each), and at each step the same reads are timed at one caller: GET /v1/balance, the first and a
// later page of the PaymentIntents and orders lists, one of each, the events list (all, and by type). The table gives each read's p50 at each step and its ratio to the empty merchant's.
// SCALE_STEPS: the merchant's PaymentIntents at each step (default "0,100000,1000000"; 5,000,000 PaymentIntents is
// 10 million ledger entries and takes minutes to seed on 2 cores). BENCH_DURATION: seconds per read per step (3).
import pg from "pg";
import { loadAverages, timedLoop } from "./lib/bench-loop";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { startServerProcess } from "./lib/server-process";

const STEPS = (process.env.SCALE_STEPS ?? "0,100000,1000000").split(",").map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
process.env.DATABASE_URL = database.url;
const server = await startServerProcess(Number(process.env.BENCH_PORT ?? 3995), {
  DATABASE_URL: database.url,
  CRON_SECRET: "bench",
  RATE_LIMIT_MAX: "1000000000",
});
const db = new pg.Client({ connectionString: database.url });
await db.connect();
const { transaction, closeDb } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");

/** `count` more captured PaymentIntents of the merchant, each with its capture posting (payer -> merchant_pending). */
async function seed(merchantId: string, from: number, count: number) {
  const chunk = 250_000;
  // The seed's postings are balanced by construction: the per-row balance check at commit is skipped for them (only
  // here, in the bench's own database); the running balances' trigger stays on, as in production.
  await db.query("ALTER TABLE ledger_entries DISABLE TRIGGER ledger_posting_balanced");
  for (let start = from; start < from + count; start += chunk) {
    const n = Math.min(chunk, from + count - start);
    await db.query(
      `INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, source, captured_at, created_at)
       SELECT 'pi_scale' || g, $1, false, 'captured', 1000, 1000, 'USD', 'api', now(), now() - make_interval(secs => g)
         FROM generate_series($2::int, $3::int) g`,
      [merchantId, start, start + n - 1],
    );
    await db.query(
      `INSERT INTO ledger_entries (posting_id, kind, merchant_id, livemode, account, currency, amount, payment_intent_id)
       SELECT 'lp_scale' || g, 'capture', $1, false, leg.account, 'USD', leg.amount, 'pi_scale' || g
         FROM generate_series($2::int, $3::int) g,
              (VALUES ('payer', -1000), ('merchant_pending', 1000)) AS leg(account, amount)`,
      [merchantId, start, start + n - 1],
    );
  }
  // Their orders and events (already fanned out: the merchant has no webhook endpoints).
  for (let start = from; start < from + count; start += chunk) {
    const range = [merchantId, start, start + Math.min(chunk, from + count - start) - 1];
    await db.query(
      `INSERT INTO orders (id, merchant_id, livemode, status, payment_intent_id, amount, currency, source, created_at)
       SELECT 'ord_scale' || g, $1, false, 'paid', 'pi_scale' || g, 1000, 'USD', 'api', now() - make_interval(secs => g)
         FROM generate_series($2::int, $3::int) g`,
      range,
    );
    await db.query(
      `INSERT INTO events (id, merchant_id, livemode, type, data, object_id, fanned_out_at, created_at)
       SELECT 'evt_scale' || g, $1, false, 'order.paid',
              jsonb_build_object('object', jsonb_build_object('id', 'ord_scale' || g, 'object', 'order', 'status', 'paid')),
              'ord_scale' || g, now(), now() - make_interval(secs => g)
         FROM generate_series($2::int, $3::int) g`,
      range,
    );
  }
  await db.query("ALTER TABLE ledger_entries ENABLE TRIGGER ledger_posting_balanced");
  await db.query("ANALYZE payment_intents; ANALYZE ledger_entries; ANALYZE orders; ANALYZE events");
  // The deltas the seed wrote, folded as the tick would.
  await fetch(`${server.url}/api/cron/tick`, { headers: { Authorization: "Bearer bench" } });
}

try {
  const others = await Promise.all(Array.from({ length: 5 }, (_, i) => transaction((tx) => createMerchant(tx, { name: `other ${i}` }))));
  const merchant = await transaction((tx) => createMerchant(tx, { name: "scale merchant" }));
  const auth = { Authorization: `Bearer ${merchant.testSecretKey}` };
  await seed(others[0].merchantId, 10_000_000, 50_000); // someone else's history beside it
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: auth });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ data?: { id: string }[]; has_more?: boolean }>;
  };
  const reads: Record<string, () => Promise<unknown>> = {};
  const results = new Map<string, number[]>();
  let seeded = 0;
  for (const step of STEPS) {
    if (step > seeded) {
      const t0 = performance.now();
      await seed(merchant.merchantId, seeded, step - seeded);
      console.log(
        `seeded ${step - seeded} PaymentIntents (${2 * (step - seeded)} ledger entries) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      seeded = step;
    }
    const first = await get("/v1/payment_intents?limit=100");
    const deepCursor = first.data?.at(-1)?.id;
    reads["GET /v1/balance"] = () => get("/v1/balance");
    reads["GET /v1/payment_intents (first page of 100)"] = () => get("/v1/payment_intents?limit=100");
    reads["GET /v1/payment_intents (a later page of 100)"] = () =>
      get(`/v1/payment_intents?limit=100${deepCursor ? `&startingAfter=${deepCursor}` : ""}`);
    reads["GET /v1/payment_intents/:id"] = () => get(`/v1/payment_intents/${deepCursor ?? "pi_none"}`).catch(() => undefined);
    const deepOrder = (await get("/v1/orders?limit=100")).data?.at(-1)?.id;
    reads["GET /v1/orders (first page of 100)"] = () => get("/v1/orders?limit=100");
    reads["GET /v1/orders (a later page of 100)"] = () => get(`/v1/orders?limit=100${deepOrder ? `&startingAfter=${deepOrder}` : ""}`);
    reads["GET /v1/orders/:id"] = () => get(`/v1/orders/${deepOrder ?? "ord_none"}`).catch(() => undefined);
    reads["GET /v1/events (first page of 100)"] = () => get("/v1/events?limit=100");
    reads["GET /v1/events?type=order.paid (first page)"] = () => get("/v1/events?type=order.paid&limit=100");
    for (const [label, read] of Object.entries(reads)) {
      await timedLoop(1, 1, () => read().then(() => undefined)); // warm-up
      const run = await timedLoop(DURATION, 1, () => read().then(() => undefined));
      const p50 = percentile(
        [...run.times].sort((a, b) => a - b),
        50,
      );
      results.set(label, [...(results.get(label) ?? []), p50]);
    }
  }
  console.log(
    `\nScale benchmark: one caller, ${DURATION}s per read per step, production build; load before ${loadBefore}, after ${loadAverages()}`,
  );
  console.log(
    `| read | ${STEPS.map((s) => `p50 at ${s.toLocaleString("en")} PIs (${(2 * s).toLocaleString("en")} entries)`).join(" | ")} | last / empty |`,
  );
  console.log(`|---|${STEPS.map(() => "---:").join("|")}|---:|`);
  for (const [label, p50s] of results)
    console.log(`| ${label} | ${p50s.map((v) => `${v.toFixed(1)} ms`).join(" | ")} | ${(p50s.at(-1)! / p50s[0]).toFixed(2)}x |`);
} finally {
  await db.end();
  await closeDb();
  await server.stop();
  await database.cleanup();
}
