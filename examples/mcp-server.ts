// A runnable MCP server (official @modelcontextprotocol/sdk, Streamable HTTP) with two paid tools:
//   premium_quote  single-use paywall(): each call is paid for with one PaymentIntent (docs/sdk.md "Paywall (single-use), for MCP tools");
//                  anyone may call it: an unpaid call gets ONE tool result advertising three ways to pay: the gate
//                  (`_servicePayment`), the MPP challenge in _meta["org.paymentauth/payment-required"] (mppx/mcp-sdk
//                  clients) and the x402 PaymentRequired in _meta["x402/payment-required"] (x402 over MCP; USD prices
//                  only) (docs/sdk.md "MPP and x402 over MCP")
//   word_count     meteredPaywall(): 0.4 cent per started 1,000 characters of text, on the meter of the
//                  AUTHENTICATED caller (docs/sdk.md "Metered paywall"); anonymous callers get no metered run
// It uses only the SDK (the agent-payments-sdk package, packages/sdk), the way a merchant's own server would.
//
//   SERVICE_URL=http://localhost:3000 SERVICE_API_KEY=sk_test_... MERCHANT_ID=mer_... \
//   AGENT_TOKENS=<token>=mtr_...,<token2>=mtr_... npm run example:mcp
//
// Settings (environment): SERVICE_URL (default http://localhost:3000), SERVICE_API_KEY and MERCHANT_ID
// (the merchant's own, required), PORT (default 3333), PRICE (minor units, default 25), CURRENCY (usd),
// AGENT_TOKENS (comma-separated `token=meterId`: the bearer token you gave each agent and the meter you
// opened for it; a word_count call bills the meter of its token, never one it names), METERED_PREPAID=1
// (reserve against each agent's prepaid budget before the call; without it the call runs and is metered
// after, post-paid, which the spec allows for TRUSTED callers only: give post-paid tokens only to
// customers you extend credit to). MPP_SECRET_KEY (at least 32 bytes): the HMAC key of premium_quote's MPP
// challenges; every process serving the tool needs the same one. Default: derived from SERVICE_API_KEY (an HMAC
// of it, so the key itself never leaves), which every process of one merchant shares.
// Who bills what: the meter comes from the caller's token; the quantity from the text the tool counts
// (never a count the caller declares, so `units: 0` buys nothing); a prepaid call is reserved under a new
// key the SDK makes per call (a caller cannot replay a reservation); a post-paid call's requestId is the
// caller's (a retry is billed once, docs/paywall.md), scoped to that caller.
// ALLOWED_HOSTS / ALLOWED_ORIGINS (comma-separated; defaults: this port on 127.0.0.1, localhost and [::1])
// are the Host headers and browser origins /mcp answers: any other gets 403 (DNS-rebinding protection,
// MCP TypeScript SDK advisory GHSA-w48q-cv73-mx4w). Behind a proxy or on a public name, list that name.
// Endpoints: POST /mcp (MCP, stateless Streamable HTTP), GET /stats (tool calls received and handler
// runs per tool in this process, so tests can count runs), GET /health.
import { createHash, createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { meteredPaywall, paywall, serviceBackend, serviceConsumedStore, serviceMeteringBackend } from "agent-payments-sdk";
import { mppOverMcp } from "agent-payments-sdk/mcp-mpp";

const settings = {
  serviceUrl: process.env.SERVICE_URL ?? "http://localhost:3000",
  apiKey: required("SERVICE_API_KEY"),
  merchantId: required("MERCHANT_ID"),
  port: Number(process.env.PORT ?? 3333),
  price: Number(process.env.PRICE ?? 25),
  currency: process.env.CURRENCY ?? "usd",
  agents: agentTokens(process.env.AGENT_TOKENS ?? ""),
  meteredPrepaid: process.env.METERED_PREPAID === "1",
  mppSecretKey: process.env.MPP_SECRET_KEY,
};
const LOCAL_NAMES = ["127.0.0.1", "localhost", "[::1]"];
/** The Host headers (name:port, exactly as sent) and Origins /mcp answers; every other one is 403. */
const allowedHosts = list(process.env.ALLOWED_HOSTS) ?? LOCAL_NAMES.map((name) => `${name}:${settings.port}`);
const allowedOrigins = list(process.env.ALLOWED_ORIGINS) ?? LOCAL_NAMES.map((name) => `http://${name}:${settings.port}`);

function list(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items && items.length > 0 ? items : undefined;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required (see the comment at the top of examples/mcp-server.ts).`);
    process.exit(1);
  }
  return value;
}

/** AGENT_TOKENS -> sha256(token) -> the agent and its meter (a Map: no inherited keys; digests, so a lookup leaks no token timing). */
function agentTokens(list: string): Map<string, { agentId: string; meterId: string }> {
  const agents = new Map<string, { agentId: string; meterId: string }>();
  for (const [i, entry] of list
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)
    .entries()) {
    const at = entry.lastIndexOf("=");
    if (at <= 0 || at === entry.length - 1) {
      console.error(`AGENT_TOKENS: "${entry.slice(0, 4)}..." is not token=meterId.`);
      process.exit(1);
    }
    agents.set(digest(entry.slice(0, at)), { agentId: `agent_${i + 1}`, meterId: entry.slice(at + 1) });
  }
  return agents;
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The caller of an MCP request: none (anonymous), or the agent of a known bearer token; an unknown token is refused (401). */
function authenticate(req: http.IncomingMessage): AuthInfo | null | "refused" {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer (\S+)$/i.exec(header);
  const agent = match ? settings.agents.get(digest(match[1])) : undefined;
  if (!agent) return "refused";
  return { token: match![1], clientId: agent.agentId, scopes: ["word_count"], extra: { meterId: agent.meterId } };
}

/** The authenticated caller's agent and meter, or undefined for an anonymous call. */
function callerOf(extra: { authInfo?: AuthInfo }): { agentId: string; meterId: string } | undefined {
  const meterId = extra.authInfo?.extra?.meterId;
  return typeof meterId === "string" ? { agentId: extra.authInfo!.clientId, meterId } : undefined;
}

const service = { baseUrl: settings.serviceUrl, apiKey: settings.apiKey };
/** Per process (GET /stats): tool calls received, and how many times each tool's own handler ran. */
const calls = { premium_quote: 0, word_count: 0 };
const runs = { premium_quote: 0, word_count: 0 };

// Built once: the wrappers hold no per-request state, and the consumed store is the service's, so any
// number of processes share one first-redemption-wins decision. Backend and store are the same service
// and key, so each paid call verifies and redeems in one request.
const premiumQuote = paywall({
  backend: serviceBackend(service),
  consumed: serviceConsumedStore({ ...service, merchantId: settings.merchantId }),
  merchantId: settings.merchantId,
  price: settings.price,
  currency: settings.currency,
  sku: "premium_quote",
  // The standard MCP transports, settled through the same service and redeemed in the same store.
  mpp: mppOverMcp({
    ...service,
    secretKey: settings.mppSecretKey ?? createHmac("sha256", settings.apiKey).update("mcp-example mpp challenges").digest("hex"),
  }),
  ...(settings.currency.toLowerCase() === "usd" ? { x402: service } : {}), // x402 pays in USDC: USD prices only
})(async ({ symbol }: { symbol: string }) => {
  runs.premium_quote++;
  const quote = { symbol: symbol.toUpperCase(), price: 100 + ((symbol.length * 7.31) % 50), at: new Date().toISOString() };
  return { content: [{ type: "text" as const, text: JSON.stringify(quote) }] };
});

type WordCountArgs = { text: string; requestId?: string };
type Extra = { authInfo?: AuthInfo };
const wordCount = meteredPaywall<WordCountArgs, Extra>({
  backend: serviceMeteringBackend(service),
  meterId: (_args, extra) => callerOf(extra)!.meterId, // the caller's own meter (anonymous calls never get here)
  unitPriceMinor: 400_000, // 0.4 cent in base units (1,000,000 per cent)
  quantity: (args) => Math.max(1, Math.ceil(args.text.length / 1000)), // the work: started 1,000 characters, at least one
  prepaid: settings.meteredPrepaid,
  // Post-paid only (trusted callers): the caller's key of its call, scoped to that caller. Prepaid calls are
  // keyed per call by the SDK itself.
  ...(settings.meteredPrepaid
    ? {}
    : { idempotencyKey: (args: WordCountArgs, extra: Extra) => `${callerOf(extra)!.agentId}:${args.requestId}` }),
})(async ({ text }: WordCountArgs) => {
  runs.word_count++;
  const words = text.trim() ? text.trim().split(/\s+/).length : 0;
  return { content: [{ type: "text" as const, text: String(words) }] };
});

const servicePayment = z.object({ paymentIntentId: z.string() }).optional().describe("Payment proof, after paying the gate.");

function mcpServer(): McpServer {
  const server = new McpServer({ name: "paid-tools-example", version: "1.0.0" });
  server.registerTool(
    "premium_quote",
    {
      description: `A stock quote; costs ${settings.price} (minor units, ${settings.currency.toUpperCase()}) per call. Unpaid calls return the payment terms.`,
      inputSchema: { symbol: z.string().min(1).max(12), _servicePayment: servicePayment },
    },
    (args, extra) => {
      calls.premium_quote++;
      return premiumQuote(args, extra);
    },
  );
  const text = z.string().max(100_000);
  server.registerTool(
    "word_count",
    {
      description: `Counts words; 0.4 cent per started 1,000 characters, billed on the meter of your bearer token (${settings.meteredPrepaid ? "prepaid budget" : "post-paid"}).`,
      inputSchema: settings.meteredPrepaid
        ? { text }
        : { text, requestId: z.string().min(1).max(255).describe("Your key of this call: a retry with the same key is billed once.") },
    },
    (args: WordCountArgs, extra: Extra) => {
      calls.word_count++;
      if (!callerOf(extra)) {
        return {
          content: [
            {
              type: "text" as const,
              text: "word_count bills the caller's meter: call with Authorization: Bearer <the token you were given>.",
            },
          ],
          isError: true,
        };
      }
      return wordCount(args, extra);
    },
  );
  return server;
}

/** Stateless Streamable HTTP: a fresh server and transport per request (no sessions to share between processes). */
async function handleMcp(req: http.IncomingMessage & { auth?: AuthInfo }, res: http.ServerResponse): Promise<void> {
  const caller = authenticate(req);
  if (caller === "refused") {
    res.writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": 'Bearer error="invalid_token"' });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unknown bearer token." }, id: null }));
    return;
  }
  if (caller) req.auth = caller; // the transport hands it to tool handlers as extra.authInfo
  const server = mcpServer();
  // DNS-rebinding protection: a page whose name was re-pointed at this machine reaches us with ITS Host and
  // Origin, so both must be ours (403 otherwise, before any tool runs). The SDK marks these transport
  // options deprecated in favour of its Express middleware (hostHeaderValidation), which checks the Host
  // only; this plain node:http server keeps the transport's check, which covers Origin too.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableDnsRebindingProtection: true,
    allowedHosts,
    allowedOrigins,
  });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, await readJson(req));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  if (req.method !== "POST") return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined; // the transport answers the parse error
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

const httpServer = http.createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  if (path === "/mcp") {
    handleMcp(req, res).catch((err) => {
      console.error("mcp request failed:", err instanceof Error ? err.message : err);
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null });
    });
    return;
  }
  if (path === "/stats" && req.method === "GET") return sendJson(res, 200, { pid: process.pid, calls, runs });
  if (path === "/health" && req.method === "GET") return sendJson(res, 200, { status: "ok" });
  sendJson(res, 404, { error: "not found" });
});

httpServer.listen(settings.port, "127.0.0.1", () => {
  console.log(
    `MCP example listening on http://127.0.0.1:${settings.port}/mcp (service ${settings.serviceUrl}, instance ${randomUUID().slice(0, 8)})`,
  );
});

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => httpServer.close(() => process.exit(0)));
