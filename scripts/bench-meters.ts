// npm run bench:meters: the metering hot paths on a production build and a fresh database, with npm
// start's 1 s ticker running (so threshold settlements happen during the load, as in production).
//  1. Post-paid: BENCH_CALLS (default 2000) POST /v1/meters/:id/usage, BENCH_CONCURRENCY (default 16) at once.
//  2. Prepaid: BENCH_CALLS reserve + commit pairs (two requests per metered call), same concurrency.
//  3, 4. The same through the SDK's serviceMeteringBackend (what meteredPaywall calls): its client, its
//     Idempotency-Key on every POST (the reservation's key when the call has none of its own).
//  5. Post-paid usage in batches, POST /v1/meters/usage_batches, at each size of BENCH_BATCH_SIZES (default
//     1,100,1000): BENCH_BATCH_RECORDS records (default: 2,000 at size 1, 20,000 at 100, 100,000 at 1,000),
//     BENCH_BATCH_CONCURRENCY requests at once (default 16 at size 1, else 4), each worker on a meter of its
//     own (agents on their own meters); then the largest size again with every worker on ONE meter (all
//     batches queue on its row). Bodies are serialized before the clock starts. Prints records/s and the
//     per-request latency p50/p99, and checks the books of every meter (billed + accrued == accepted).
// Prints calls/s and per-call latency p50/p99, the load average, and checks the books. Post-paid: every base
// unit metered is either billed in an aggregate PaymentIntent or still accrued. Prepaid: the budget was
// charged once up front (one funding PaymentIntent, no settlements), and after close the unused funds are
// refunded: funded - refunded = the usage rounded to the minor unit.
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { startServerProcess } from "./lib/server-process";
import { startTicker } from "./lib/ticker";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PRICE = 400_000; // 0.4 cent in base units
const CRON = "bench-cron";

const database = await freshBenchDatabase();
const server = await startServerProcess(Number(process.env.BENCH_PORT ?? 3997), {
  DATABASE_URL: database.url,
  CRON_SECRET: CRON,
  RATE_LIMIT_MAX: "1000000000",
  SECRETS_ENCRYPTION_KEY: "33".repeat(32),
});
process.env.DATABASE_URL = database.url;
const { getDb, transaction } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");

async function post(path: string, key: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
const get = (path: string, key: string) =>
  fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());

/** Runs `call(i)` for i < CALLS with CONCURRENCY workers; returns calls/s and sorted latencies (ms). */
async function load(call: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < CALLS; i = next++) {
        const t = performance.now();
        await call(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  return { perSecond: CALLS / seconds, latencies: latencies.sort((a, b) => a - b) };
}

async function settledBooks(key: string, meterId: string, prepaid: boolean, expectedBase = CALLS * PRICE) {
  if (prepaid) return prepaidBooks(key, meterId);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const meter = await get(`/v1/meters/${meterId}`, key);
    const payments = (await get(`/v1/payment_intents?meterId=${meterId}&limit=100`, key)).data as { amount: number; status: string }[];
    const billed = payments.filter((p) => p.status === "settled").reduce((sum, p) => sum + p.amount, 0);
    // Done once the ticker has billed everything above the threshold (100 cents) and the books balance.
    const settled = meter.accruedBase < 100 * 1_000_000 && payments.every((p) => p.status === "settled");
    if ((settled && billed * 1_000_000 + meter.accruedBase === expectedBase) || Date.now() > deadline) {
      return {
        ok: billed * 1_000_000 + meter.accruedBase === expectedBase && meter.usedBase === expectedBase,
        payments: payments.length,
        billed,
      };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Prepaid: closes the meter and waits for the close settlement to refund what the usage did not draw. */
async function prepaidBooks(key: string, meterId: string) {
  await post(`/v1/meters/${meterId}/close`, key, {});
  const drawn = Math.round((CALLS * PRICE) / 1_000_000);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const meter = await get(`/v1/meters/${meterId}`, key);
    const payments = (await get(`/v1/payment_intents?meterId=${meterId}&limit=100`, key)).data as {
      amount: number;
      amountRefunded: number;
      meterPurpose: string;
    }[];
    const fundingOnly = payments.length === 1 && payments[0].meterPurpose === "funding";
    const ok =
      fundingOnly &&
      meter.usedBase === CALLS * PRICE &&
      meter.fundedMinor - meter.refundedMinor === drawn &&
      payments[0].amount - payments[0].amountRefunded === drawn;
    if (ok || Date.now() > deadline) return { ok, payments: payments.length, billed: meter.fundedMinor - meter.refundedMinor };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); 0 when it is gone. */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd (state) on
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 100 Hz
  } catch {
    return 0;
  }
}

/**
 * CPU the server process and this database's Postgres backends (the server's pool) use over a phase: what
 * a record costs whatever else the shared machine runs. Postgres' own background processes (WAL writer,
 * checkpointer, autovacuum) are not counted. Linux only; null elsewhere.
 */
async function cpuMeter() {
  if (!existsSync("/proc/self/stat") || !server.child.pid) return null;
  const backends = async () =>
    (
      await getDb().$queryRaw<
        { pid: number }[]
      >`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
    ).map((r) => r.pid);
  const serverPid = server.child.pid;
  const before = new Map((await backends()).map((pid) => [pid, cpuMsOf(pid)]));
  const serverBefore = cpuMsOf(serverPid);
  return async () => {
    const serverMs = cpuMsOf(serverPid) - serverBefore;
    let postgresMs = 0;
    for (const pid of await backends()) postgresMs += cpuMsOf(pid) - (before.get(pid) ?? 0);
    return { serverMs, postgresMs };
  };
}

const BATCH_SIZES = (process.env.BENCH_BATCH_SIZES ?? "1,100,1000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const defaultBatchRecords = (size: number) => (size === 1 ? CALLS : size <= 100 ? 20_000 : 100_000);

/** Usage in batches: for each size, records spread over one meter per worker; then the largest on one meter. */
async function batchPhases(key: string, customerId: string) {
  const rows: string[] = [];
  let balanced = true;
  const shapes = [
    ...BATCH_SIZES.map((size) => ({ size, oneMeter: false })),
    ...(BATCH_SIZES.length ? [{ size: Math.max(...BATCH_SIZES), oneMeter: true }] : []),
  ];
  for (const { size, oneMeter } of shapes) {
    const records = Number(process.env.BENCH_BATCH_RECORDS ?? defaultBatchRecords(size));
    const concurrency = Number(process.env.BENCH_BATCH_CONCURRENCY ?? (size === 1 ? CONCURRENCY : 4));
    const meterCount = oneMeter ? 1 : concurrency;
    const meters: string[] = [];
    for (let m = 0; m < meterCount; m++)
      meters.push((await post("/v1/meters", key, { customerId, currency: "usd", thresholdMinor: 100, prepaid: false })).id);
    // Worker w sends batches w, w + concurrency, ...: batch b goes to meter b % meterCount.
    const batchCount = Math.ceil(records / size);
    const amounts = new Map<string, number>(); // per meter: base units the answers accepted
    const bodies = Array.from({ length: batchCount }, (_, b) => {
      const meterId = meters[b % meterCount];
      const list = Array.from({ length: Math.min(size, records - b * size) }, (_, i) => ({
        meterId,
        quantity: 1 + (i % 3),
        unitPriceMinor: PRICE + (i % 7),
        idempotencyKey: `b${size}-${b}-${i}`,
      }));
      return { meterId, json: JSON.stringify({ records: list }), list };
    });
    const latencies: number[] = [];
    let accepted = 0;
    let next = 0;
    const cpu = await cpuMeter();
    const startedAt = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let b = next++; b < batchCount; b = next++) {
          const t = performance.now();
          const res = await fetch(`${server.url}/v1/meters/usage_batches`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: bodies[b].json,
          });
          const answer = await res.json();
          latencies.push(performance.now() - t);
          if (res.status !== 200) throw new Error(`usage_batches: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
          answer.results.forEach((r: { status: string }, i: number) => {
            if (r.status !== "accepted") return;
            accepted += 1;
            const rec = bodies[b].list[i];
            amounts.set(rec.meterId, (amounts.get(rec.meterId) ?? 0) + rec.quantity * rec.unitPriceMinor);
          });
        }
      }),
    );
    const seconds = (performance.now() - startedAt) / 1000;
    const used = cpu ? await cpu() : null;
    latencies.sort((a, b) => a - b);
    let ok = accepted === records;
    for (const meterId of meters) ok = (await settledBooks(key, meterId, false, amounts.get(meterId) ?? 0)).ok && ok;
    balanced &&= ok;
    rows.push(
      `| ${size.toLocaleString("en-US")} | ${meterCount} | ${records.toLocaleString("en-US")} | ${concurrency} | **${Math.round(records / seconds).toLocaleString("en-US")}** | ${percentile(latencies, 50).toFixed(1)} ms | ${percentile(latencies, 99).toFixed(1)} ms | ${cpuColumns(used, records, os.cpus().length)} | ${ok ? "yes" : "NO"} |`,
    );
    console.log(rows.at(-1));
  }
  return { rows, balanced };
}

/** Server and Postgres CPU per 1,000 records, and the records/s those would allow with every core on them. */
function cpuColumns(used: { serverMs: number; postgresMs: number } | null, records: number, cores: number) {
  if (!used) return "n/a | n/a | n/a";
  const per = (ms: number) => ((ms * 1000) / records).toFixed(1);
  const bound = Math.round((records * cores * 1000) / (used.serverMs + used.postgresMs));
  return `${per(used.serverMs)} ms | ${per(used.postgresMs)} ms | ${bound.toLocaleString("en-US")}`;
}

const stopTicker = startTicker(server.url, CRON);
try {
  const merchant = await transaction((tx) => createMerchant(tx, { name: "Bench merchant" }));
  const key = merchant.testSecretKey;
  const payer = await post("/v1/customers", key, { name: "agent" });
  await post(`/v1/customers/${payer.id}/fund`, key, { amount: 10_000_000, currency: "usd" });

  const { serviceMeteringBackend } = await import("agent-payments-sdk");
  const sdk = serviceMeteringBackend({ baseUrl: server.url, apiKey: key, maxRetries: 0 });
  const openMeter = (prepaid: boolean) =>
    post("/v1/meters", key, {
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 100,
      prepaid,
      ...(prepaid ? { budgetMinor: CALLS, paymentMethod: "pm_card_visa" } : {}),
    });
  const phases = [
    {
      name: "post-paid usage record, API (1 request)",
      prepaid: false,
      call: (meterId: string, i: number) =>
        post(`/v1/meters/${meterId}/usage`, key, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: `call-${i}` }),
    },
    {
      name: "prepaid reserve + commit, API (2 requests)",
      prepaid: true,
      call: async (meterId: string) => {
        const hold = await post(`/v1/meters/${meterId}/reservations`, key, { quantity: 1, unitPriceMinor: PRICE });
        await post(`/v1/meters/${meterId}/reservations/${hold.id}/commit`, key, {});
      },
    },
    {
      name: "post-paid recordUsage, SDK serviceMeteringBackend",
      prepaid: false,
      call: (meterId: string, i: number) => sdk.recordUsage({ meterId, quantity: 1, unitPriceMinor: PRICE, idempotencyKey: `call-${i}` }),
    },
    {
      name: "prepaid reserve + commit, SDK serviceMeteringBackend",
      prepaid: true,
      call: async (meterId: string) => {
        const hold = await sdk.reserve({ meterId, quantity: 1, unitPriceMinor: PRICE });
        if (!hold.ok) throw new Error("budget refused");
        await sdk.commit({ meterId, reservationId: hold.reservationId });
      },
    },
  ];
  const rows: string[] = [];
  let balanced = true;
  // BENCH_SKIP_SINGLE=1 runs the batch phases alone (for measuring them; the documented run has all).
  for (const phase of process.env.BENCH_SKIP_SINGLE === "1" ? [] : phases) {
    const meter = await openMeter(phase.prepaid);
    const result = await load(async (i) => {
      await phase.call(meter.id, i);
    });
    const books = await settledBooks(key, meter.id, phase.prepaid);
    balanced &&= books.ok;
    rows.push(
      `| ${phase.name} | ${result.perSecond.toFixed(0)} | ${percentile(result.latencies, 50).toFixed(1)} ms | ${percentile(result.latencies, 99).toFixed(1)} ms | ${books.payments} (${books.billed} cents) | ${books.ok ? "yes" : "NO"} |`,
    );
  }
  const batchRows = await batchPhases(key, payer.id);
  const [load1, load5] = os.loadavg();

  console.log(`\nMeters benchmark: production build, fresh database, 1 s ticker, ${CALLS} calls, concurrency ${CONCURRENCY}\n`);
  console.log("| measure | calls/s | p50 | p99 | PaymentIntents (cents kept) | books balance |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const row of rows) console.log(row);
  console.log(`\nUsage in batches (POST /v1/meters/usage_batches), same server and database\n`);
  console.log(
    "| batch size | meters | records | requests at once | records/s | p50 per request | p99 per request | server CPU / 1k records | Postgres CPU / 1k records | records/s if every core did only this | books balance |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const row of batchRows.rows) console.log(row);
  balanced &&= batchRows.balanced;
  console.log(`\nload average (1 min / 5 min) at the end: ${load1.toFixed(2)} / ${load5.toFixed(2)}; ${os.cpus().length} CPUs`);
  if (!balanced) process.exitCode = 1;
} finally {
  stopTicker();
  await getDb().$disconnect();
  await server.stop();
  await database.cleanup();
}
