// npm run bench:x402: a paid x402 request through a hosted paid resource (docs/x402.md), on a production build
// and a fresh database. Each call: the payer signs a fresh EIP-3009 authorization with the real x402 client
// (@x402/core x402Client + @x402/evm ExactEvmScheme, createPaymentPayload for the resource's 402), then
// GET /x402/r/:id with PAYMENT-SIGNATURE: the service verifies the signature offline, settles into a captured
// PaymentIntent in one transaction (ledger, order, events) and returns the content. Also measured: the whole
// stock @x402/fetch round (402, sign, paid retry), the same payment sent again (a lost answer: the kept answer) and
// the GET /health baseline, in the same run; then, at one caller, the server's time alone (authorizations signed
// beforehand), the signing alone and GET /health. And the live row:
// the same paid request in LIVE mode, settled on a real chain (anvil, mining each transaction at once; the
// service's JSON-RPC calls counted through a relay in front of it) by the official facilitator scheme.
// BENCH_DURATION seconds per loop (default 10), BENCH_CONCURRENCY callers (default 8), BENCH_ROUNDS (default 2).
// BENCH_X402_POLICY=1 adds the spending-policy check (docs/spending-policies.md, scripts/lib/bench-spending.ts): other
// payers, whose wallets a payer merchant's spending agents list, each agent with a policy evaluating every rule and
// counting a daily budget. Two more rows in each round: every payer's wallet listed by ONE agent (all concurrent
// settlements update that agent's one budget counter row, a hot row held until each capture commits), and each
// payer's wallet its own agent (a row each); and at one payer, the server time with the check beside the one without.
// BENCH_TRIPS=1 puts a counting proxy between the server and PostgreSQL (scripts/lib/pg-round-trips.ts) and reports
// the database round trips of one paid request at one payer (the proxy costs time: leave it off for the timings).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme, toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { getHealth, loadAverages, machineLoadLine, resultRow, timedLoop, type LoopRun } from "./lib/bench-loop";
import { freshBenchDatabase } from "./lib/bench-setup";
import { benchPolicy, createSpendingAgent, spendingCounts } from "./lib/bench-spending";
import { countRoundTrips } from "./lib/pg-round-trips";
import { startServerProcess } from "./lib/server-process";
import { startTestChain } from "./lib/test-chain";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PRICE = 1; // cents
const POLICY = process.env.BENCH_X402_POLICY === "1";
const TRIPS = process.env.BENCH_TRIPS === "1";
/** Paid requests whose round trips are counted (BENCH_TRIPS), one at a time. */
const TRIPS_SAMPLE = 100;

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
const chain = await startTestChain();
/** A relay in front of the node that counts the service's JSON-RPC calls. */
let rpcCalls = 0;
const relay = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const parsed = JSON.parse(body.toString("utf8")) as unknown;
  rpcCalls += Array.isArray(parsed) ? parsed.length : 1;
  const answer = await fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
  res.writeHead(answer.status, { "content-type": "application/json" });
  res.end(Buffer.from(await answer.arrayBuffer()));
});
await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
const token = chain.token;
const proxy = TRIPS ? await countRoundTrips(database.url) : null;
const server = await startServerProcess(Number(process.env.BENCH_PORT ?? 3996), {
  DATABASE_URL: proxy?.url ?? database.url,
  CRON_SECRET: "bench",
  RATE_LIMIT_MAX: "1000000000",
  // Every paid resource gets a forwarding secret, stored encrypted.
  SECRETS_ENCRYPTION_KEY: "33".repeat(32),
  X402_RPC_URLS: JSON.stringify({ [chain.network]: relayUrl }),
  X402_ASSETS: JSON.stringify({ [chain.network]: { address: token.address, name: token.name, version: token.version, decimals: 6 } }),
  X402_FACILITATOR_PRIVATE_KEY: chain.facilitatorKey,
});
process.env.DATABASE_URL = database.url;
const { transaction, closeDb, getDb } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");

try {
  const seller = await transaction((tx) => createMerchant(tx, { name: "x402 bench seller" }));
  const created = await fetch(`${server.url}/v1/paid_resources`, {
    method: "POST",
    headers: { Authorization: `Bearer ${seller.testSecretKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Bench content", amount: PRICE, currency: "usd", content: { answer: 42 } }),
  });
  if (created.status !== 201) throw new Error(`create resource: ${created.status} ${await created.text()}`);
  const resource = (await created.json()) as { id: string };
  const url = `${server.url}/x402/r/${resource.id}`;
  const unpaid = await fetch(url);
  const required = JSON.parse(Buffer.from(unpaid.headers.get("payment-required")!, "base64").toString("utf8"));
  /** Payers with fresh keys (test mode: no funds needed), and their addresses. */
  const newSigners = () => {
    const accounts = Array.from({ length: CONCURRENCY }, () => privateKeyToAccount(generatePrivateKey()));
    const clients = accounts.map((account) => new x402Client().register("eip155:84532", new ExactEvmScheme(account)));
    return { clients, addresses: accounts.map((account) => account.address) };
  };
  const signers = newSigners().clients;
  const payers = signers.map((client) => wrapFetchWithPayment(fetch, client));

  /** Sign (fresh nonce) + verify + settle + content, by the worker's payer among `clients`. */
  const paidRequestBy = (clients: x402Client[]) => async (worker: number) => {
    const payload = await clients[worker].createPaymentPayload(required);
    const res = await fetch(url, { headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payload)).toString("base64") } });
    if (res.status !== 200) throw new Error(`paid request: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const paidRequest = paidRequestBy(signers);

  // BENCH_X402_POLICY=1: a payer merchant's spending agents list other payers' wallets, each agent with the policy.
  const policy = POLICY ? await policyPayers() : undefined;
  async function policyPayers() {
    const payer = await transaction((tx) => createMerchant(tx, { name: "x402 bench payer" }));
    const agentPolicy = benchPolicy(seller.merchantId, "x402", 100 * PRICE);
    const [oneAgent, spread] = [newSigners(), newSigners()];
    await createSpendingAgent(server.url, payer.testSecretKey, {
      name: "bench agent for every payer",
      policy: agentPolicy,
      walletAddresses: oneAgent.addresses,
    });
    for (const [i, address] of spread.addresses.entries())
      await createSpendingAgent(server.url, payer.testSecretKey, {
        name: `bench agent ${i + 1}`,
        policy: agentPolicy,
        walletAddresses: [address],
      });
    return { oneAgent: paidRequestBy(oneAgent.clients), spread: paidRequestBy(spread.clients), signer: oneAgent.clients[0] };
  }
  /** The same payment sent again (a lost answer): its kept answer, nothing settled. One paid header per worker. */
  const paidHeaders: string[] = [];
  for (const signer of signers) {
    const header = Buffer.from(JSON.stringify(await signer.createPaymentPayload(required))).toString("base64");
    const first = await fetch(url, { headers: { "PAYMENT-SIGNATURE": header } });
    if (first.status !== 200) throw new Error(`first paid request: ${first.status} ${await first.text()}`);
    paidHeaders.push(header);
  }
  const replayedRequest = async (worker: number) => {
    const res = await fetch(url, { headers: { "PAYMENT-SIGNATURE": paidHeaders[worker] } });
    if (res.status !== 200) throw new Error(`replayed request: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  /** The stock client's whole round: 402, sign, paid retry. */
  const stockRound = async (worker: number) => {
    const res = await payers[worker](url);
    if (res.status !== 200) throw new Error(`stock client: ${res.status}`);
    await res.arrayBuffer();
  };
  // Live: the seller's payout address on the chain, a live resource, payers holding the token.
  const live = { Authorization: `Bearer ${seller.liveSecretKey}`, "Content-Type": "application/json" };
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  const set = await fetch(`${server.url}/v1/x402/payout_addresses`, {
    method: "POST",
    headers: live,
    body: JSON.stringify({ network: chain.network, address: payout }),
  });
  if (set.status !== 201) throw new Error(`payout address: ${set.status} ${await set.text()}`);
  const liveCreated = await fetch(`${server.url}/v1/paid_resources`, {
    method: "POST",
    headers: live,
    body: JSON.stringify({ name: "Bench live content", amount: PRICE, currency: "usd", content: { answer: 42 } }),
  });
  if (liveCreated.status !== 201) throw new Error(`create live resource: ${liveCreated.status} ${await liveCreated.text()}`);
  const liveUrl = `${server.url}/x402/r/${((await liveCreated.json()) as { id: string }).id}`;
  const liveRequired = JSON.parse(Buffer.from((await fetch(liveUrl)).headers.get("payment-required")!, "base64").toString("utf8"));
  const liveSigners: x402Client[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const payer = await chain.newPayer(1_000_000_000_000n); // the minter sends one at a time
    const client = new x402Client().setSpendControls({
      allowedAssets: [{ network: chain.network as `${string}:${string}`, asset: token.address }],
    });
    registerExactEvmScheme(client, { signer: toClientEvmSigner(privateKeyToAccount(payer.key), chain.client) });
    liveSigners.push(client);
  }
  /** Live: sign + verify (offline and on chain) + claim + broadcast + receipt + capture + content. */
  const livePaidRequest = async (worker: number) => {
    const payload = await liveSigners[worker].createPaymentPayload(liveRequired);
    const res = await fetch(liveUrl, { headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payload)).toString("base64") } });
    if (res.status !== 200) throw new Error(`live paid request: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };

  const loop = (seconds: number, call: (worker: number) => Promise<void>) => timedLoop(seconds, CONCURRENCY, call);
  await loop(2, paidRequest); // warm-up
  await loop(1, stockRound);
  await loop(2, livePaidRequest);
  if (policy) await loop(1, policy.oneAgent);
  if (policy) await loop(1, policy.spread);
  const runs = {
    paid: [] as LoopRun[],
    policyOneAgent: [] as LoopRun[],
    policySpread: [] as LoopRun[],
    replayed: [] as LoopRun[],
    stock: [] as LoopRun[],
    live: [] as LoopRun[],
    health: [] as LoopRun[],
  };
  const loadAtRounds: string[] = [];
  let liveCalls = 0;
  let liveSettled = 0;
  for (let round = 0; round < ROUNDS; round++) {
    loadAtRounds.push(loadAverages());
    runs.paid.push(await loop(DURATION, paidRequest));
    if (policy) runs.policyOneAgent.push(await loop(DURATION, policy.oneAgent));
    if (policy) runs.policySpread.push(await loop(DURATION, policy.spread));
    runs.replayed.push(await loop(DURATION, replayedRequest));
    runs.stock.push(await loop(DURATION, stockRound));
    const [callsBefore, settledBefore] = [rpcCalls, await liveCount()];
    runs.live.push(await loop(DURATION, livePaidRequest));
    liveCalls += rpcCalls - callsBefore;
    liveSettled += (await liveCount()) - settledBefore;
    runs.health.push(await loop(Math.min(DURATION, 5), () => getHealth(server.url)));
  }
  // One payer (c=1): the server's time for a paid request with the client's signing excluded (authorizations signed
  // beforehand, each used once), the signing alone, and GET /health, one call at a time.
  const presign = async (signer: x402Client) => Buffer.from(JSON.stringify(await signer.createPaymentPayload(required))).toString("base64");
  const presigned: string[] = [];
  const signing = await timedLoop(2, 1, async () => {
    presigned.push(await presign(signers[0]));
  });
  while (presigned.length < DURATION * 250 + (proxy ? TRIPS_SAMPLE : 0)) presigned.push(await presign(signers[0]));
  /** A paid request with an authorization signed beforehand (each used once): the server's time alone. */
  const serverOnlyWith = (headers: string[]) => async () => {
    const header = headers.pop();
    if (!header) throw new Error("out of pre-signed authorizations");
    const res = await fetch(url, { headers: { "PAYMENT-SIGNATURE": header } });
    if (res.status !== 200) throw new Error(`pre-signed paid request: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const serverOnly = serverOnlyWith(presigned);
  const policyPresigned: string[] = [];
  if (policy) while (policyPresigned.length < DURATION * 250 + 250) policyPresigned.push(await presign(policy.signer));
  await timedLoop(1, 1, serverOnly); // warm-up
  if (policy) await timedLoop(1, 1, serverOnlyWith(policyPresigned));
  const one = {
    server: await timedLoop(DURATION, 1, serverOnly),
    policy: policy ? await timedLoop(DURATION, 1, serverOnlyWith(policyPresigned)) : undefined,
    health: await timedLoop(DURATION, 1, () => getHealth(server.url)),
  };
  let tripsPerPaid: number | null = null;
  if (proxy) {
    const before = proxy.count();
    for (let i = 0; i < TRIPS_SAMPLE; i++) await serverOnly();
    tripsPerPaid = (proxy.count() - before) / TRIPS_SAMPLE;
  }
  const settled = await getDb().paymentIntent.count({ where: { merchantId: seller.merchantId, source: "x402", status: "captured" } });
  const [{ receipts }] = await getDb().$queryRaw<{ receipts: number }[]>`
    SELECT count(*)::int AS receipts FROM receipts r JOIN payment_intents p ON p.id = r.payment_intent_id WHERE p.merchant_id = ${seller.merchantId}`;
  async function liveCount() {
    return getDb().paymentIntent.count({ where: { merchantId: seller.merchantId, livemode: true, status: "settled" } });
  }

  console.log(
    `\nx402 benchmark: ${ROUNDS} rounds of ${DURATION}s per way, ${CONCURRENCY} concurrent payers, production build, fresh database`,
  );
  console.log(machineLoadLine(loadBefore, loadAtRounds));
  console.log("| request | calls/s (per round) | p50 | p99 |");
  console.log("|---|---:|---:|---:|");
  console.log(resultRow("paid x402 request: sign + verify + settle + content (GET /x402/r/:id)", runs.paid));
  if (policy) {
    console.log(
      resultRow("the same, every payer's wallet listed by ONE spending agent (policy checked, one budget row)", runs.policyOneAgent),
    );
    console.log(resultRow("the same, each payer's wallet its own spending agent (policy checked, a budget row each)", runs.policySpread));
  }
  console.log(resultRow("the same payment again (a lost answer): the kept answer", runs.replayed));
  console.log(resultRow("stock @x402/fetch round: 402, sign, paid retry", runs.stock));
  console.log(resultRow("live paid x402 request, settled on chain (anvil, automine)", runs.live));
  console.log(resultRow("baseline: GET /health", runs.health));
  console.log("\n| one payer (c=1) | calls/s | p50 | p99 |\n|---|---:|---:|---:|");
  console.log(resultRow("server time of a paid request: verify + settle + content (pre-signed)", [one.server]));
  if (one.policy) console.log(resultRow("the same, the payer's wallet listed by a spending agent (policy checked)", [one.policy]));
  console.log(resultRow("the payer's signing alone (createPaymentPayload)", [signing]));
  console.log(resultRow("baseline: GET /health", [one.health]));
  if (tripsPerPaid !== null) console.log(`\nDB round trips per paid request (one payer, pre-signed): ${tripsPerPaid.toFixed(2)}`);
  console.log(
    `\ncaptured x402 PaymentIntents: ${settled} (receipts signed: ${receipts}); live, settled on chain: ${liveSettled} (timed rounds)`,
  );
  console.log(`JSON-RPC calls per live settlement: ${(liveCalls / Math.max(1, liveSettled)).toFixed(1)}`);
  if (policy) console.log(await spendingCounts((sql) => getDb().$queryRawUnsafe<Record<string, unknown>[]>(sql), "x402"));
} finally {
  await closeDb();
  await server.stop();
  relay.close();
  await proxy?.close();
  await chain.stop();
  await database.cleanup();
}
