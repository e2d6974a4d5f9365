// The example MCP server's metered tool (word_count, 0.4 cent per unit) end to end: the official MCP
// client over Streamable HTTP -> examples/mcp-server.ts (its own process) -> meteredPaywall ->
// the running service's /v1/meters -> the tick's aggregate PaymentIntent.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call } from "../helpers/http";
import { startMcpExample, type ExampleServer } from "../helpers/mcp-example";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tickUntilSettled } from "../helpers/meters";
import { createCustomer } from "../helpers/payments";

let seller: TestMerchant;
let postPaid: ExampleServer;
let prepaid: ExampleServer;
const clients: Client[] = [];

beforeAll(async () => {
  seller = await createTestMerchant("Metered MCP seller");
  const env = { SERVICE_URL: baseUrl(), SERVICE_API_KEY: seller.testKey, MERCHANT_ID: seller.merchantId };
  [postPaid, prepaid] = await Promise.all([startMcpExample(env), startMcpExample({ ...env, METERED_PREPAID: "1" })]);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all([postPaid?.stop(), prepaid?.stop()]);
});

async function connect(example: ExampleServer): Promise<Client> {
  const client = new Client({ name: "metered-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${example.url}/mcp`)));
  clients.push(client);
  return client;
}

async function openMeter(body: Record<string, unknown>) {
  const payer = await createCustomer(seller.testKey, { amount: 1_000, currency: "usd" });
  const res = await call("POST", "/v1/meters", { key: seller.testKey, body: { customerId: payer.id, currency: "usd", ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

const meterOf = async (id: string) => (await call("GET", `/v1/meters/${id}`, { key: seller.testKey })).body;

describe("example MCP server: metered word_count", () => {
  it("post-paid: three 0.4-cent calls settle one PaymentIntent of 1 cent, 0.2 carried; a retried requestId is billed once", async () => {
    const meter = await openMeter({ thresholdMinor: 1, prepaid: false });
    const agent = await connect(postPaid);
    for (const requestId of ["r1", "r2", "r3", "r3"]) {
      const result = await agent.callTool({ name: "word_count", arguments: { text: "one two three", meterId: meter.id, requestId } });
      expect(result.isError).toBeFalsy();
      expect((result.content as { text: string }[])[0].text).toBe("3");
      expect(result.metering).toMatchObject({ meterId: meter.id, quantity: 1, amountBase: 400_000, status: "recorded" });
    }
    expect((await postPaid.runs()).word_count).toBe(4); // the retry ran (post-paid runs first) ...
    expect((await meterOf(meter.id)).usedBase).toBe(1_200_000); // ... but was metered once
    await tickUntilSettled(meter.id);
    const pis = (await call("GET", `/v1/payment_intents?meterId=${meter.id}`, { key: seller.testKey })).body.data;
    expect(pis.map((p: { amount: number; status: string }) => [p.amount, p.status])).toEqual([[1, "settled"]]);
    expect(await meterOf(meter.id)).toMatchObject({ accruedBase: 200_000, billedMinor: 1 });
  });

  it("prepaid: the budget gates the call with the top-up prompt, the handler does not run; a top-up unblocks it", async () => {
    const meter = await openMeter({ thresholdMinor: 1, prepaid: true, budgetMinor: 1, paymentMethod: "pm_card_visa" });
    const agent = await connect(prepaid);
    const before = (await prepaid.runs()).word_count;
    const ok = await agent.callTool({ name: "word_count", arguments: { text: "a b", units: 2, meterId: meter.id, requestId: "p1" } });
    expect(ok.metering).toMatchObject({ status: "committed", amountBase: 800_000 });
    const gated = await agent.callTool({ name: "word_count", arguments: { text: "a b", meterId: meter.id, requestId: "p2" } });
    expect(gated.isError).toBe(true);
    expect(gated.structuredContent).toMatchObject({
      kind: "payment_required",
      reasonCode: "insufficient_budget",
      meterId: meter.id,
      topUpUrl: expect.stringMatching(new RegExp(`/v1/meters/${meter.id}/top-up$`)),
      details: { reason: "insufficient_budget", availableBase: 200_000, topUp: { minimumAmountMinor: 1 } },
    });
    expect((await prepaid.runs()).word_count).toBe(before + 1);
    expect((await call("POST", `/v1/meters/${meter.id}/top-up`, { key: seller.testKey, body: { amountMinor: 1 } })).status).toBe(200);
    const after = await agent.callTool({ name: "word_count", arguments: { text: "a b", meterId: meter.id, requestId: "p3" } });
    expect(after.metering).toMatchObject({ status: "committed" });
    expect((await prepaid.runs()).word_count).toBe(before + 2);
    await tickUntilSettled(meter.id);
    // Charged up front only: the two fundings (1 cent each), never the calls themselves.
    const pis = (await call("GET", `/v1/payment_intents?meterId=${meter.id}`, { key: seller.testKey })).body.data;
    expect(pis.map((p: { amount: number; meterPurpose: string }) => [p.meterPurpose, p.amount])).toEqual([
      ["funding", 1],
      ["funding", 1],
    ]);
    // Closing draws 1.2 cents, rounded to 1, and refunds the other 1 (the newest funding).
    expect((await call("POST", `/v1/meters/${meter.id}/close`, { key: seller.testKey, body: {} })).status).toBe(200);
    await tickUntilSettled(meter.id);
    expect(await meterOf(meter.id)).toMatchObject({ usedBase: 1_200_000, billedMinor: 1, fundedMinor: 2, refundedMinor: 1 });
    const refunded = (await call("GET", `/v1/payment_intents?meterId=${meter.id}`, { key: seller.testKey })).body.data;
    expect(refunded.map((p: { amountRefunded: number }) => p.amountRefunded)).toEqual([1, 0]);
  });
});
