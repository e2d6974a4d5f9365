// npm run bench:scale: whether a merchant's reads stay flat as its history grows (docs/BENCHMARKS.md, "Scale").
// One merchant among 100 gets history in steps (scripts/lib/scale-seed.ts: captured PaymentIntents with their two
// ledger entries, checkouts, orders, events, customers). Each step's database is generated once and kept as a
// template database (`aps_scale_<seed>_<step>`, on DATABASE_URL's server or the embedded one, brought up to the
// committed migrations before each use); a run copies it,
// starts a production server on the copy and times each read at one caller: the API's balance, lists (first and a
// later page), details and events, and the dashboard's home, list and detail pages, search, and a CSV export (its time
// and the server's peak memory above its resting size). The table gives each read's p50 at each step (a list's item
// count beside it), its ratio to the smallest step's, and to the first step whose list answer was as long as the last's.
// SCALE_STEPS: the merchant's payments at each step (default "0,1000,1000000"; 5,000,000 is 10 million ledger entries
// and takes minutes to seed on 2 cores, once). BENCH_DURATION: seconds per read per step (3). SCALE_FRESH=1 rebuilds
// the templates.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { loadAverages, timedLoop } from "./lib/bench-loop";
import { freshBenchDatabase, percentile } from "./lib/bench-setup";
import { createDatabaseFromTemplate, dropDatabase } from "./lib/embedded-postgres";
import { applyPendingMigrations, ROOT } from "./lib/prisma-cli";
import { SEED_VERSION, seedPayments } from "./lib/scale-seed";
import { startServerProcess, type ServerProcess } from "./lib/server-process";

const STEPS = (process.env.SCALE_STEPS ?? "0,1000,1000000").split(",").map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3995);
const PASSWORD = "bench-scale-password";

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
const urlOf = (name: string) => Object.assign(new URL(database.url), { pathname: `/${name}` }).href;
const adminUrl = urlOf("postgres");

// The templates depend on the seed; a migration committed since one was made is applied to it (ensureTemplate).
const seedHash = createHash("sha256")
  .update(`${SEED_VERSION}:${readFileSync(path.join(ROOT, "scripts/lib/scale-seed.ts"), "utf8")}`)
  .digest("hex")
  .slice(0, 10);
const templateOf = (step: number | "base") => `aps_scale_${seedHash}_${step}`;

async function withClient<T>(url: string, work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

const exists = (name: string) =>
  withClient(adminUrl, async (db) => (await db.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1);

interface Meta {
  merchantId: string;
  secretKey: string;
  email: string;
}

/** The merchants, before any history: 100 (ours and 99 others, one of them with 50,000 payments of its own). */
async function createBaseTemplate(name: string): Promise<void> {
  await createDatabaseFromTemplate(adminUrl, name, new URL(database.url).pathname.slice(1));
  process.env.DATABASE_URL = urlOf(name);
  const { transaction, closeDb } = await import("../lib/db");
  const { createMerchant } = await import("../lib/merchants/create-merchant");
  const { hashPassword } = await import("../lib/crypto/password");
  const email = "scale@bench.example";
  const passwordHash = await hashPassword(PASSWORD);
  const merchant = await transaction((tx) => createMerchant(tx, { name: "scale merchant", email, passwordHash }));
  const others = await transaction(async (tx) => {
    const created = [];
    for (let i = 0; i < 99; i++) created.push(await createMerchant(tx, { name: `other ${i}` }));
    return created;
  });
  await closeDb();
  await withClient(urlOf(name), async (db) => {
    await seedPayments(db, others[0].merchantId, 100_000_000, 50_000); // someone else's history beside it
    const meta: Meta = { merchantId: merchant.merchantId, secretKey: merchant.testSecretKey, email };
    await db.query("CREATE TABLE bench_scale_meta (meta jsonb NOT NULL)");
    await db.query("INSERT INTO bench_scale_meta VALUES ($1)", [JSON.stringify(meta)]);
  });
}

/** The template of `step` (and of the steps before it), generated when missing; returns its name. */
async function ensureTemplate(index: number): Promise<string> {
  const step = STEPS[index];
  const name = templateOf(step);
  if (process.env.SCALE_FRESH === "1") await dropDatabase(adminUrl, name);
  if (await exists(name)) {
    const applied = await applyPendingMigrations(urlOf(name));
    if (applied) console.log(`${name}: applied ${applied} migrations committed since it was made`);
    return name;
  }
  const previous = index === 0 ? null : await ensureTemplate(index - 1);
  const from = index === 0 ? 0 : STEPS[index - 1];
  if (previous) await createDatabaseFromTemplate(adminUrl, name, previous, true);
  else {
    const base = templateOf("base");
    if (process.env.SCALE_FRESH === "1") await dropDatabase(adminUrl, base);
    if (!(await exists(base))) await createBaseTemplate(base);
    await createDatabaseFromTemplate(adminUrl, name, base);
  }
  if (step > from) {
    const t0 = performance.now();
    await withClient(urlOf(name), async (db) => {
      const { rows } = await db.query<{ meta: Meta }>("SELECT meta FROM bench_scale_meta");
      await seedPayments(db, rows[0].meta.merchantId, from, step - from);
    });
    console.log(
      `seeded payments ${from}..${step - 1} (${2 * (step - from)} ledger entries) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
  return name;
}

/** A dashboard session of the merchant's user, as a browser signs in (next-auth's CSRF token, then its callback). */
async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  if (csrf.status !== 200) throw new Error(`dashboard sign-in: /api/auth/csrf answered ${csrf.status}`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((line) => line.split(";")[0]);
  const res = await fetch(`${base}/api/auth/callback/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies.join("; "), Origin: base },
    body: new URLSearchParams({ email, password: PASSWORD, csrfToken, json: "true" }),
  });
  const session = res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .find((cookie) => cookie.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`dashboard sign-in failed: ${res.status}`);
  return [...cookies, session].join("; ");
}

/** The server's resident memory, KiB (Linux). */
function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : NaN;
}

/** GETs `path` to the end; with `pid`, samples that process's memory meanwhile and returns the peak above the start. */
async function download(url: string, headers: Record<string, string>, pid: number): Promise<{ bytes: number; peakKiB: number }> {
  const before = rssKiB(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(pid))), 10);
  try {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    return { bytes, peakKiB: Math.max(peak, rssKiB(pid)) - before };
  } finally {
    clearInterval(sampler);
  }
}

const results = new Map<string, number[]>();
/** Items in each list read's answer per step (undefined for a page or a single object): a ratio compares like pages. */
const sizes = new Map<string, (number | undefined)[]>();
const exports: string[] = [];

async function timeReads(server: ServerProcess, meta: Meta, step: number): Promise<void> {
  const auth = { Authorization: `Bearer ${meta.secretKey}` };
  const get = async (url: string, headers: Record<string, string> = auth) => {
    const res = await fetch(`${server.url}${url}`, { headers, redirect: "manual" });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res;
  };
  const api = async (url: string) => (await (await get(url)).json()) as { data?: { id: string }[] };
  const dashboard = { Cookie: await signIn(server.url, meta.email) };
  const page = async (url: string) => void (await (await get(url, dashboard)).text());
  // The 100th newest of each list: a later page starts after it; its detail is a read of an existing row.
  const hundredth = async (list: string) => (await api(`${list}?limit=100`)).data?.at(-1)?.id;
  const [pi, order, event] = [await hundredth("/v1/payment_intents"), await hundredth("/v1/orders"), await hundredth("/v1/events")];
  const after = (id: string | undefined) => (id ? `&startingAfter=${id}` : "");
  const reads: Record<string, (() => Promise<unknown>) | null> = {
    "GET /v1/balance": () => api("/v1/balance"),
    "GET /v1/payment_intents (first page of 100)": () => api("/v1/payment_intents?limit=100"),
    "GET /v1/payment_intents (the next page of 100)": () => api(`/v1/payment_intents?limit=100${after(pi)}`),
    "GET /v1/payment_intents/:id": pi ? () => api(`/v1/payment_intents/${pi}`) : null,
    "GET /v1/orders (first page of 100)": () => api("/v1/orders?limit=100"),
    "GET /v1/orders (the next page of 100)": () => api(`/v1/orders?limit=100${after(order)}`),
    "GET /v1/orders/:id": order ? () => api(`/v1/orders/${order}`) : null,
    "GET /v1/events (first page of 100)": () => api("/v1/events?limit=100"),
    "GET /v1/events (the next page of 100)": () => api(`/v1/events?limit=100${after(event)}`),
    "GET /v1/events?type=order.paid (first page)": () => api("/v1/events?type=order.paid&limit=100"),
    "GET /v1/events/:id": event ? () => api(`/v1/events/${event}`) : null,
    "dashboard: home": () => page("/dashboard"),
    "dashboard: payments": () => page("/dashboard/payments"),
    "dashboard: a payment": pi ? () => page(`/dashboard/payments/${pi}`) : null,
    "dashboard: orders": () => page("/dashboard/orders"),
    "dashboard: an order": order ? () => page(`/dashboard/orders/${order}`) : null,
    "dashboard: events": () => page("/dashboard/events"),
    "dashboard: customers": () => page("/dashboard/customers"),
    // One customer's address (every tenth payment has one), and a word in one description in eight.
    "dashboard: search, a rare term": () => page(`/dashboard/search?q=buyer${Math.floor(step / 20) * 10}@scale`),
    "dashboard: search, a common term": () => page("/dashboard/search?q=delta"),
  };
  for (const [label, read] of Object.entries(reads)) {
    const items = (answer: unknown) => (answer as { data?: unknown[] } | undefined)?.data?.length;
    if (!read) {
      results.set(label, [...(results.get(label) ?? []), NaN]); // nothing to read yet (a detail of an empty merchant)
      sizes.set(label, [...(sizes.get(label) ?? []), undefined]);
      continue;
    }
    sizes.set(label, [...(sizes.get(label) ?? []), items(await read())]);
    await timedLoop(1, 1, () => read().then(() => undefined)); // warm-up
    const run = await timedLoop(DURATION, 1, () => read().then(() => undefined));
    const p50 = percentile(
      [...run.times].sort((a, b) => a - b),
      50,
    );
    results.set(label, [...(results.get(label) ?? []), p50]);
  }
  // The CSV export of every payment (up to its cap), twice: time and the server's peak memory above its resting size.
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    const { bytes, peakKiB } = await download(`${server.url}/api/dashboard/payments/export`, dashboard, server.child.pid!);
    const ms = performance.now() - t0;
    if (i === 1) {
      results.set("dashboard: CSV export of the payments", [...(results.get("dashboard: CSV export of the payments") ?? []), ms]);
      exports.push(
        `| ${step.toLocaleString("en")} | ${(bytes / 1024 / 1024).toFixed(1)} MiB | ${ms.toFixed(0)} ms | ${(peakKiB / 1024).toFixed(1)} MiB |`,
      );
    }
  }
}

try {
  for (let index = 0; index < STEPS.length; index++) {
    const template = await ensureTemplate(index);
    const copy = `aps_bench_scale_${process.pid}_${STEPS[index]}`;
    const t0 = performance.now();
    await createDatabaseFromTemplate(adminUrl, copy, template, true);
    console.log(`step ${STEPS[index].toLocaleString("en")}: copied ${template} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const server = await startServerProcess(PORT, {
      DATABASE_URL: urlOf(copy),
      CRON_SECRET: "bench",
      RATE_LIMIT_MAX: "1000000000",
      LOGIN_RATE_LIMIT_MAX: "1000",
      // The dashboard's sessions are signed with a key derived from it (a production server refuses to run without).
      SECRETS_ENCRYPTION_KEY: "5a".repeat(32),
    });
    try {
      const meta = await withClient(
        urlOf(copy),
        async (db) => (await db.query<{ meta: Meta }>("SELECT meta FROM bench_scale_meta")).rows[0].meta,
      );
      // The seed's balance deltas, folded as the tick would.
      await fetch(`${server.url}/api/cron/tick`, { headers: { Authorization: "Bearer bench" } });
      await timeReads(server, meta, STEPS[index]);
    } finally {
      await server.stop();
      await dropDatabase(adminUrl, copy);
    }
  }
  console.log(
    `\nScale benchmark: one caller, ${DURATION}s per read per step, production build; load before ${loadBefore}, after ${loadAverages()}`,
  );
  const steps = STEPS.map((s) => `p50 at ${s.toLocaleString("en")} payments (${(2 * s).toLocaleString("en")} entries)`);
  // The last step against the first measured, and against the first whose list answer held as many items as the last's
  // (an empty merchant's page of 0 events is not the cost of a page of 100: the second column compares like pages).
  console.log(`| read | ${steps.join(" | ")} | last / first measured | last / first with as many items |`);
  console.log(`|---|${STEPS.map(() => "---:").join("|")}|---:|---:|`);
  for (const [label, p50s] of results) {
    const first = p50s.find((v) => !Number.isNaN(v))!;
    const counts = sizes.get(label) ?? [];
    const like = p50s.find((v, i) => !Number.isNaN(v) && counts[i] === counts.at(-1))!;
    const cells = p50s.map((v, i) => (Number.isNaN(v) ? "-" : `${v.toFixed(1)} ms${counts[i] === undefined ? "" : ` (${counts[i]})`}`));
    console.log(`| ${label} | ${cells.join(" | ")} | ${(p50s.at(-1)! / first).toFixed(2)}x | ${(p50s.at(-1)! / like).toFixed(2)}x |`);
  }
  console.log("\n| CSV export at | size | time | server memory peak above resting |\n|---:|---:|---:|---:|");
  for (const line of exports) console.log(line);
} finally {
  await database.cleanup();
}
