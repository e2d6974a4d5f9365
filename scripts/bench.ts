// npm run bench: request-pipeline throughput on a production build and a fresh database.
// Measures a trivial route (/health), an authenticated read (GET /v1/customers/:id) and an authenticated,
// rate-limited, idempotent create (POST /v1/customers with a fresh Idempotency-Key per request).
// Settings: BENCH_DURATION (seconds per case, default 10), BENCH_CONNECTIONS (default 32).
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { freshBenchDatabase } from "./lib/bench-setup";
import { startServerProcess } from "./lib/server-process";

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const port = Number(process.env.BENCH_PORT ?? 3999);

interface Case {
  name: string;
  options: Partial<autocannon.Options>;
}

interface Figures {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function run(url: string, bench: Case, seconds: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, ...bench.options }, (err, result) => {
      if (err) return reject(err);
      resolve({
        name: bench.name,
        reqPerSec: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    });
  });
}

const database = await freshBenchDatabase();
const databaseUrl = database.url;

// The limiter runs on every request but never refuses: its cost is measured, not its policy.
const server = await startServerProcess(port, { DATABASE_URL: databaseUrl, RATE_LIMIT_MAX: "1000000000", CRON_SECRET: "bench" });
process.env.DATABASE_URL = databaseUrl;
const { transaction, getDb } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");
try {
  const merchant = await transaction((tx) => createMerchant(tx, { name: "Bench merchant" }));
  const auth = { authorization: `Bearer ${merchant.testSecretKey}`, "content-type": "application/json" };
  const customer = await (await fetch(`${server.url}/v1/customers`, { method: "POST", headers: auth, body: JSON.stringify({ name: "bench" }) })).json();

  const cases: Case[] = [
    { name: "GET /health (trivial route)", options: { url: `${server.url}/health` } },
    { name: "GET /v1/customers/:id (auth + rate limit + read)", options: { url: `${server.url}/v1/customers/${customer.id}`, headers: auth } },
    {
      name: "POST /v1/customers (auth + rate limit + idempotency + write)",
      options: {
        url: `${server.url}/v1/customers`,
        method: "POST",
        headers: auth,
        requests: [
          {
            setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() }, body: JSON.stringify({ name: "bench", email: "bench@example.com" }) }),
          },
        ],
      },
    },
  ];

  const results: Figures[] = [];
  for (const bench of cases) {
    await run(server.url, bench, 2); // warm-up: JIT, connection pools, route compilation
    results.push(await run(server.url, bench, duration));
  }
  const trivial = results[0].reqPerSec;
  console.log(`\nRequest pipeline benchmark: ${duration}s per case, ${connections} connections, production build, fresh database\n`);
  console.log("| case | req/s | p50 ms | p99 ms | vs trivial | non-2xx | errors |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    console.log(`| ${r.name} | ${r.reqPerSec.toFixed(0)} | ${r.p50} | ${r.p99} | ${((r.reqPerSec / trivial) * 100).toFixed(0)}% | ${r.non2xx} | ${r.errors} |`);
  }
} finally {
  await getDb().$disconnect();
  await server.stop();
  await database.cleanup();
}
