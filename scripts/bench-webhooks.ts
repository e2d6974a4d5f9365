// npm run bench:webhooks: the webhook sender on a production build and a fresh database, delivering to
// a local receiver that answers 200 at once.
//  1. Throughput: BENCH_EVENTS (default 3000) outbox events, drained by back-to-back ticks -> deliveries/s.
//  2. Latency: BENCH_CAPTURES (default 100) real captures through the API while npm start's ticker runs
//     (one tick a second) -> capture-to-delivery p50/p99 of order.paid.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { startServerProcess } from "./lib/server-process";
import { startTicker } from "./lib/ticker";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const CAPTURES = Number(process.env.BENCH_CAPTURES ?? 100);
const CRON = "bench-cron";

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
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const database = await freshBenchDatabase();
const server = await startServerProcess(Number(process.env.BENCH_PORT ?? 3998), {
  DATABASE_URL: database.url,
  CRON_SECRET: CRON,
  RATE_LIMIT_MAX: "1000000000",
  SECRETS_ENCRYPTION_KEY: "33".repeat(32),
  WEBHOOK_BATCH_SIZE: process.env.WEBHOOK_BATCH_SIZE ?? "500",
  WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY ?? "64",
});
process.env.DATABASE_URL = database.url;
const { getDb, transaction, closeDb } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");
const { emitEvent } = await import("../lib/events/emit-event");

const post = (path: string, key: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
const tick = () => fetch(`${server.url}/api/cron/tick`, { headers: { authorization: `Bearer ${CRON}` } }).then((r) => r.json());

try {
  const merchant = await transaction((tx) => createMerchant(tx, { name: "Bench merchant" }));
  const key = merchant.testSecretKey;
  await post("/v1/webhook-endpoints", key, { url: receiverUrl });
  const scope = { merchantId: merchant.merchantId, livemode: false };

  // 1. Throughput.
  for (let i = 0; i < EVENTS; i += 500) {
    await transaction(async (tx) => {
      for (let j = i; j < Math.min(EVENTS, i + 500); j++) await emitEvent(tx, scope, "order.paid", { id: `ord_bench${j}`, object: "order" });
    });
  }
  const startedAt = performance.now();
  while (arrivals.size < EVENTS) await tick();
  const seconds = (performance.now() - startedAt) / 1000;

  // 2. Capture-to-delivery latency with the 1 s ticker.
  arrivals.clear();
  const stopTicker = startTicker(server.url, CRON);
  const capturedAt = new Map<string, number>();
  for (let i = 0; i < CAPTURES; i++) {
    const checkout = await post("/v1/checkouts", key, { amount: 1000 + i, currency: "usd" });
    const order = await post(`/v1/checkouts/${checkout.id}/capture`, key, { paymentMethod: "pm_card_visa" });
    capturedAt.set(order.id, performance.now());
    await new Promise((resolve) => setTimeout(resolve, 37)); // spread captures across the tick phase
  }
  const events = await getDb().event.findMany({ where: { merchantId: merchant.merchantId, type: "order.paid" }, select: { id: true, data: true } });
  const paidEvents = events.filter((e) => capturedAt.has((e.data as { object: { id: string } }).object.id));
  const deadline = Date.now() + 30_000;
  while (paidEvents.some((e) => !arrivals.has(e.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  stopTicker();
  const latencies = paidEvents
    .map((e) => arrivals.get(e.id)! - capturedAt.get((e.data as { object: { id: string } }).object.id)!)
    .sort((a, b) => a - b);

  console.log(`\nWebhook sender benchmark: production build, fresh database, local receiver answering 200 at once\n`);
  console.log("| measure | value |");
  console.log("|---|---:|");
  console.log(`| deliveries/s (${EVENTS} events, back-to-back ticks, batch ${process.env.WEBHOOK_BATCH_SIZE ?? 500}, concurrency ${process.env.WEBHOOK_CONCURRENCY ?? 64}) | ${(EVENTS / seconds).toFixed(0)} |`);
  console.log(`| capture-to-delivery p50 (${latencies.length} captures, 1 s ticker) | ${percentile(latencies, 50).toFixed(0)} ms |`);
  console.log(`| capture-to-delivery p99 | ${percentile(latencies, 99).toFixed(0)} ms |`);
} finally {
  await closeDb();
  await server.stop();
  receiver.close();
  await database.cleanup();
}
