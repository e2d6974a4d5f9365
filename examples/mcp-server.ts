// A runnable MCP server (official @modelcontextprotocol/sdk, Streamable HTTP) with two paid tools:
//   premium_quote  single-use paywall(): each call is paid for with one PaymentIntent (SPEC.md 2.4-2.7)
//   word_count     meteredPaywall(): 0.4 cent per unit, accrued on the caller's meter (SPEC.md 2.8)
// It uses only the SDK (lib/sdk), the way a merchant's own server would.
//
//   SERVICE_URL=http://localhost:3000 SERVICE_API_KEY=sk_test_... MERCHANT_ID=mer_... npm run example:mcp
//
// Settings (environment): SERVICE_URL (default http://localhost:3000), SERVICE_API_KEY and MERCHANT_ID
// (the merchant's own, required), PORT (default 3333), PRICE (minor units, default 25), CURRENCY (usd),
// METER_ID (default meter of word_count; a call may name its own `meterId`), METERED_PREPAID=1 (reserve
// against a prepaid budget before each word_count call instead of metering after it).
// Endpoints: POST /mcp (MCP, stateless Streamable HTTP), GET /stats (tool calls received and handler
// runs per tool in this process, so tests can count runs), GET /health.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { meteredPaywall, paywall, serviceBackend, serviceConsumedStore, serviceMeteringBackend } from "../lib/sdk";

const settings = {
  serviceUrl: process.env.SERVICE_URL ?? "http://localhost:3000",
  apiKey: required("SERVICE_API_KEY"),
  merchantId: required("MERCHANT_ID"),
  port: Number(process.env.PORT ?? 3333),
  price: Number(process.env.PRICE ?? 25),
  currency: process.env.CURRENCY ?? "usd",
  meterId: process.env.METER_ID,
  meteredPrepaid: process.env.METERED_PREPAID === "1",
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required (see the comment at the top of examples/mcp-server.ts).`);
    process.exit(1);
  }
  return value;
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
})(async ({ symbol }: { symbol: string }) => {
  runs.premium_quote++;
  const quote = { symbol: symbol.toUpperCase(), price: 100 + (symbol.length * 7.31) % 50, at: new Date().toISOString() };
  return { content: [{ type: "text" as const, text: JSON.stringify(quote) }] };
});

type WordCountArgs = { text: string; units?: number; meterId?: string; requestId: string };
const wordCount = meteredPaywall<WordCountArgs>({
  backend: serviceMeteringBackend(service),
  meterId: (args) => args.meterId ?? settings.meterId ?? "",
  unitPriceMinor: 400_000, // 0.4 cent in base units (1,000,000 per cent)
  quantity: (args) => args.units,
  prepaid: settings.meteredPrepaid,
  ...(settings.meteredPrepaid ? {} : { idempotencyKey: (args: WordCountArgs) => args.requestId }),
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
  server.registerTool(
    "word_count",
    {
      description: "Counts words; 0.4 cent per unit, billed on your meter.",
      inputSchema: {
        text: z.string().max(100_000),
        units: z.number().int().min(0).max(1000).optional(),
        meterId: z.string().optional(),
        requestId: z.string().min(1).max(255).describe("Your key of this call: a retry with the same key is billed once."),
      },
    },
    (args, extra) => {
      calls.word_count++;
      if (!args.meterId && !settings.meterId) {
        return { content: [{ type: "text" as const, text: "No meter: pass meterId (open one with POST /v1/meters)." }], isError: true };
      }
      return wordCount(args, extra);
    },
  );
  return server;
}

/** Stateless Streamable HTTP: a fresh server and transport per request (no sessions to share between processes). */
async function handleMcp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
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
  console.log(`MCP example listening on http://127.0.0.1:${settings.port}/mcp (service ${settings.serviceUrl}, instance ${randomUUID().slice(0, 8)})`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => httpServer.close(() => process.exit(0)));
