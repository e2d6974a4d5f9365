// npm run bench:mcp: a tools/call round trip through the service's own MCP server (/mcp, stateless
// Streamable HTTP, OAuth access token) against POST /v1/checkouts (API key), both creating one checkout,
// on a production build and a fresh database, interleaved in BENCH_ROUNDS rounds (default 2) of
// BENCH_DURATION seconds (default 10) with BENCH_CONCURRENCY (default 16) callers -> calls/s, p50, p99.
// Both are raw HTTP requests from this process (fetch), so neither side pays a client library's cost.
// The OAuth grant and access token are written straight into the database (the flow itself is proven by
// tests/http/oauth-mcp.http.test.ts); the token is checked by /mcp exactly as one issued by /oauth/token.
import { randomUUID } from "node:crypto";
import { loadAverages, machineLoadLine, resultRow, timedLoop, type LoopRun } from "./lib/bench-loop";
import { freshBenchDatabase } from "./lib/bench-setup";
import { startServerProcess } from "./lib/server-process";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const loadBefore = loadAverages();
const database = await freshBenchDatabase();
const port = Number(process.env.BENCH_PORT ?? 3996);
const base = `http://127.0.0.1:${port}`;
const server = await startServerProcess(port, {
  DATABASE_URL: database.url,
  CRON_SECRET: "bench",
  RATE_LIMIT_MAX: "1000000000",
  // Its callers are one principal each way: let all of them run at once (the cap is tested, not benched).
  MCP_MAX_CONCURRENT_CALLS_PER_PRINCIPAL: String(CONCURRENCY),
  BASE_URL: base,
});
process.env.DATABASE_URL = database.url;
const { transaction, closeDb } = await import("../lib/db");
const { createMerchant } = await import("../lib/merchants/create-merchant");
const { hashToken, newSecret, ACCESS_TOKEN_PREFIX } = await import("../lib/oauth/secrets");

try {
  const merchant = await transaction((tx) => createMerchant(tx, { name: "Bench merchant" }));
  const accessToken = newSecret(ACCESS_TOKEN_PREFIX);
  await transaction(async (tx) => {
    await tx.oAuthClient.create({ data: { id: "mcpc_bench", name: "bench agent", redirectUris: ["http://127.0.0.1:9/cb"] } });
    await tx.oAuthGrant.create({
      data: {
        id: "oag_bench",
        clientId: "mcpc_bench",
        merchantId: merchant.merchantId,
        livemode: false,
        scopes: ["read", "write"],
        resource: `${base}/mcp`,
      },
    });
    await tx.oAuthAccessToken.create({
      data: { tokenHash: hashToken(accessToken), grantId: "oag_bench", expiresAt: new Date(Date.now() + 3600_000) },
    });
  });

  const viaApi = async () => {
    const res = await fetch(`${base}/v1/checkouts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${merchant.testSecretKey}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ amount: 1999, currency: "usd", description: "bench" }),
    });
    if (res.status !== 201) throw new Error(`POST /v1/checkouts: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  let id = 0;
  const viaMcp = async () => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${accessToken}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: ++id,
        method: "tools/call",
        params: {
          name: "create_checkout",
          arguments: { amount: 1999, currency: "usd", description: "bench", idempotencyKey: randomUUID() },
        },
      }),
    });
    const body = (await res.json()) as { result?: { isError?: boolean; structuredContent?: { url?: string } } };
    if (res.status !== 200 || body.result?.isError || !body.result?.structuredContent?.url)
      throw new Error(`tools/call: ${res.status} ${JSON.stringify(body)}`);
  };

  const loop = (seconds: number, call: () => Promise<void>) => timedLoop(seconds, CONCURRENCY, call);
  await loop(2, viaApi);
  await loop(2, viaMcp);
  const runs = { api: [] as LoopRun[], mcp: [] as LoopRun[] };
  const loadAtRounds: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    loadAtRounds.push(loadAverages());
    runs.api.push(await loop(DURATION, viaApi));
    runs.mcp.push(await loop(DURATION, viaMcp));
  }
  console.log(
    `\nMCP benchmark: ${ROUNDS} rounds of ${DURATION}s per way, ${CONCURRENCY} concurrent callers, production build, fresh database`,
  );
  console.log(machineLoadLine(loadBefore, loadAtRounds));
  console.log("| create one checkout | calls/s (per round) | p50 | p99 |");
  console.log("|---|---:|---:|---:|");
  console.log(resultRow("POST /v1/checkouts (API key, Idempotency-Key)", runs.api));
  console.log(resultRow("POST /mcp tools/call create_checkout (OAuth token, idempotencyKey)", runs.mcp));
} finally {
  await closeDb();
  await server.stop();
  await database.cleanup();
}
