// Issue 5 acceptance, end to end: the official MCP client over Streamable HTTP against the example server
// (examples/mcp-server.ts, two processes) and a running service. Call -> gate; pay at payEndpoint with the
// payer's own key; retry -> paid result; same proof -> already_redeemed with the tool run once; a
// wrong-sku payment -> gate with reference_mismatch; 50 concurrent retries with one proof through both
// processes -> the handler runs once.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { expectPaidCallEndToEnd, payGate, startMcpExample, type ExampleServer } from "../helpers/mcp-example";
import { startTestServer } from "../helpers/server";

let service: ServerProcess;
let seller: TestMerchant;
let payer: TestMerchant;
let examples: ExampleServer[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  // Its own service, with a rate limit the 50-call burst below stays inside.
  [service, seller, payer] = await Promise.all([
    startTestServer({ RATE_LIMIT_MAX: "10000" }),
    createTestMerchant("MCP seller"),
    createTestMerchant("MCP agent"),
  ]);
  const env = { SERVICE_URL: service.url, SERVICE_API_KEY: seller.testKey, MERCHANT_ID: seller.merchantId, PRICE: "25", CURRENCY: "usd" };
  examples = await Promise.all([startMcpExample(env), startMcpExample(env)]);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all([...examples.map((e) => e.stop()), service?.stop()]);
});

async function connect(example: ExampleServer): Promise<Client> {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${example.url}/mcp`)));
  clients.push(client);
  return client;
}

const totalRuns = async (tool: string) => (await Promise.all(examples.map((e) => e.runs()))).reduce((sum, runs) => sum + runs[tool], 0);

describe("MCP example server + service, through the official MCP client", () => {
  it("lists both tools", async () => {
    const client = await connect(examples[0]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["premium_quote", "word_count"]);
  });

  it("call -> gate; pay at payEndpoint; retry -> paid; same proof -> already_redeemed, the tool ran once", async () => {
    await expectPaidCallEndToEnd({ examples, connect, seller, payer, serviceUrl: service.url });
  });

  it("a payment for another sku -> the gate with reasonCode reference_mismatch; the tool does not run", async () => {
    const client = await connect(examples[1]);
    const before = await totalRuns("premium_quote");
    const gate = (await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" } })).structuredContent as Record<string, any>;
    const wrongSku = await payGate(gate, payer, { sku: "another_tool" });
    const res = await client.callTool({
      name: "premium_quote",
      arguments: { symbol: "acme", _servicePayment: { paymentIntentId: wrongSku } },
    });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ kind: "payment_required", sku: "premium_quote", reasonCode: "reference_mismatch" });
    // ... and the proof was not burnt by the failed attempt (verification comes before consumption).
    const unknown = await client.callTool({
      name: "premium_quote",
      arguments: { symbol: "acme", _servicePayment: { paymentIntentId: "pi_doesnotexist000000000000" } },
    });
    expect(unknown.structuredContent).toMatchObject({ reasonCode: "not_found" });
    expect(await totalRuns("premium_quote")).toBe(before);
  });

  it("50 concurrent retries with one proof, through two example processes: the handler runs once", async () => {
    const [a, b] = await Promise.all(examples.map((e) => connect(e)));
    const gate = (await a.callTool({ name: "premium_quote", arguments: { symbol: "race" } })).structuredContent as Record<string, any>;
    const paymentIntentId = await payGate(gate, payer);
    const before = await totalRuns("premium_quote");
    const callsBefore = await Promise.all(examples.map((e) => e.calls()));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? b : a).callTool({ name: "premium_quote", arguments: { symbol: "race", _servicePayment: { paymentIntentId } } }),
      ),
    );
    const paid = results.filter((r) => (r.payment as { status?: string } | undefined)?.status === "paid");
    const redeemed = results.filter((r) => (r.structuredContent as { kind?: string } | undefined)?.kind === "already_redeemed");
    expect(paid).toHaveLength(1);
    expect(redeemed).toHaveLength(49);
    expect(await totalRuns("premium_quote")).toBe(before + 1);
    // Both processes took part: each received its 25 of the 50 calls.
    const callsAfter = await Promise.all(examples.map((e) => e.calls()));
    expect(callsAfter.map((c, i) => c.premium_quote - callsBefore[i].premium_quote)).toEqual([25, 25]);
  });
});
