// The example MCP server's metered tool (word_count, 0.4 cent per started 1,000 characters) end to end:
// the official MCP client over Streamable HTTP -> examples/mcp-server.ts (its own process) ->
// meteredPaywall -> the running service's /v1/meters -> the tick's aggregate PaymentIntent.
// Issue 14 item 1: the meter is the authenticated caller's (AGENT_TOKENS binds each bearer token to one
// meter), the quantity comes from the text, prepaid calls are keyed per call by the server, and an
// anonymous caller gets no metered run at all (post-paid or prepaid).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call } from "../helpers/http";
import { startMcpExample, type ExampleServer } from "../helpers/mcp-example";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tickUntilSettled } from "../helpers/meters";
import { createCustomer } from "../helpers/payments";

type MeterBody = { id: string; [field: string]: any };

let seller: TestMerchant;
let postPaid: ExampleServer;
let prepaid: ExampleServer;
const clients: Client[] = [];
const meters: Record<string, MeterBody> = {};

async function openMeter(body: Record<string, unknown>): Promise<MeterBody> {
  const payer = await createCustomer(seller.testKey, { amount: 1_000, currency: "usd" });
  const res = await call("POST", "/v1/meters", { key: seller.testKey, body: { customerId: payer.id, currency: "usd", ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

beforeAll(async () => {
  seller = await createTestMerchant("Metered MCP seller");
  const post = { thresholdMinor: 1, prepaid: false };
  const pre = (budgetMinor: number) => ({ thresholdMinor: 1, prepaid: true, budgetMinor, paymentMethod: "pm_card_visa" });
  const [postA, postB, preGate, preA, preB] = await Promise.all([
    openMeter(post),
    openMeter(post),
    openMeter(pre(1)),
    openMeter(pre(5)),
    openMeter(pre(5)),
  ]);
  Object.assign(meters, { postA, postB, preGate, preA, preB });
  const env = { SERVICE_URL: baseUrl(), SERVICE_API_KEY: seller.testKey, MERCHANT_ID: seller.merchantId };
  [postPaid, prepaid] = await Promise.all([
    startMcpExample({ ...env, AGENT_TOKENS: `tok-post-a=${postA.id},tok-post-b=${postB.id}` }),
    startMcpExample({ ...env, METERED_PREPAID: "1", AGENT_TOKENS: `tok-gate=${preGate.id},tok-pre-a=${preA.id},tok-pre-b=${preB.id}` }),
  ]);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all([postPaid?.stop(), prepaid?.stop()]);
});

async function connect(example: ExampleServer, token?: string): Promise<Client> {
  const client = new Client({ name: "metered-agent", version: "1.0.0" });
  const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${example.url}/mcp`), { requestInit }));
  clients.push(client);
  return client;
}

const meterOf = async (id: string) => (await call("GET", `/v1/meters/${id}`, { key: seller.testKey })).body;
const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0].text;

describe("example MCP server: metered word_count", () => {
  it("post-paid, authenticated: three 0.4-cent calls settle one PaymentIntent of 1 cent, 0.2 carried; a retried requestId is billed once", async () => {
    const meter = meters.postA;
    const agent = await connect(postPaid, "tok-post-a");
    for (const requestId of ["r1", "r2", "r3", "r3"]) {
      const result = await agent.callTool({ name: "word_count", arguments: { text: "one two three", requestId } });
      expect(result.isError).toBeFalsy();
      expect(text(result)).toBe("3");
      expect(result.metering).toMatchObject({ meterId: meter.id, quantity: 1, amountBase: 400_000, status: "recorded" });
    }
    expect((await postPaid.runs()).word_count).toBe(4); // the retry ran (post-paid runs first) ...
    expect((await meterOf(meter.id)).usedBase).toBe(1_200_000); // ... but was metered once
    await tickUntilSettled(meter.id);
    const pis = (await call("GET", `/v1/payment_intents?meterId=${meter.id}`, { key: seller.testKey })).body.data;
    expect(pis.map((p: { amount: number; status: string }) => [p.amount, p.status])).toEqual([[1, "settled"]]);
    expect(await meterOf(meter.id)).toMatchObject({ accruedBase: 200_000, billedMinor: 1 });
  });

  it("post-paid: an anonymous caller gets no metered run; a meterId or units in the arguments change nothing", async () => {
    const before = (await postPaid.runs()).word_count;
    const anonymous = await connect(postPaid);
    const refused = await anonymous.callTool({
      name: "word_count",
      arguments: { text: "free?", requestId: "x", meterId: meters.postB.id },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/Bearer/);
    expect((await postPaid.runs()).word_count).toBe(before);

    // Agent B names A's meter and 0 units: billed to its own meter, by the text's length.
    const agentB = await connect(postPaid, "tok-post-b");
    const result = await agentB.callTool({
      name: "word_count",
      arguments: { text: "x ".repeat(1_200), requestId: "b1", meterId: meters.postA.id, units: 0 },
    });
    expect(result.metering).toMatchObject({ meterId: meters.postB.id, quantity: 3, amountBase: 1_200_000, status: "recorded" });
    expect((await meterOf(meters.postB.id)).usedBase).toBe(1_200_000);
    expect((await meterOf(meters.postA.id)).usedBase).toBe(1_200_000); // unchanged by B
  });

  it("prepaid: a repeated requestId, units: 0 and another caller's meterId get no free run: every run is billed to the caller's own meter", async () => {
    const agent = await connect(prepaid, "tok-pre-a");
    const before = (await prepaid.runs()).word_count;
    const args = { text: "one two three", requestId: "same", units: 0, meterId: meters.preB.id };
    const results = [
      await agent.callTool({ name: "word_count", arguments: args }),
      await agent.callTool({ name: "word_count", arguments: args }),
    ];
    results.push(...(await Promise.all(Array.from({ length: 4 }, () => agent.callTool({ name: "word_count", arguments: args })))));
    for (const result of results) {
      expect(result.isError).toBeFalsy();
      expect(result.metering).toMatchObject({ meterId: meters.preA.id, quantity: 1, amountBase: 400_000, status: "committed" });
    }
    expect((await prepaid.runs()).word_count).toBe(before + 6);
    expect(await meterOf(meters.preA.id)).toMatchObject({ usedBase: 6 * 400_000, reservedBase: 0 });
    expect(await meterOf(meters.preB.id)).toMatchObject({ usedBase: 0, reservedBase: 0 });
  });

  it("prepaid: an anonymous caller is refused before any reservation; an unknown token is 401", async () => {
    const before = (await prepaid.runs()).word_count;
    const anonymous = await connect(prepaid);
    const refused = await anonymous.callTool({ name: "word_count", arguments: { text: "a b", meterId: meters.preB.id } });
    expect(refused.isError).toBe(true);
    expect((await prepaid.runs()).word_count).toBe(before);
    expect(await meterOf(meters.preB.id)).toMatchObject({ usedBase: 0, reservedBase: 0 });
    const res = await fetch(`${prepaid.url}/mcp`, {
      method: "POST",
      headers: { Authorization: "Bearer tok-nobody", "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("prepaid: the budget gates the call with the top-up prompt, the handler does not run; a top-up unblocks it", async () => {
    const meter = meters.preGate;
    const agent = await connect(prepaid, "tok-gate");
    const before = (await prepaid.runs()).word_count;
    const ok = await agent.callTool({ name: "word_count", arguments: { text: "a ".repeat(750) } }); // 1,500 characters: 2 units
    expect(ok.metering).toMatchObject({ status: "committed", quantity: 2, amountBase: 800_000 });
    const gated = await agent.callTool({ name: "word_count", arguments: { text: "a b" } });
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
    const after = await agent.callTool({ name: "word_count", arguments: { text: "a b" } });
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
