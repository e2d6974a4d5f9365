// Issue 34 item 3: paid MCP tools over the standard transports. The example MCP server (examples/mcp-server.ts, two
// processes) and a running service; the real clients:
//   - MPP: mppx/mcp-sdk/client's McpClient.wrap around the official MCP client, paying with the SDK's `service`
//     method (a shared payment token minted by the payer): the payment-required answer, paid, the tool runs once;
//     the same credential again (through the other process) -> already_redeemed.
//   - x402: @x402/core's x402Client with @x402/evm's ExactEvmScheme makes the PaymentPayload from
//     `_meta["x402/payment-required"]`. The transport itself (the payload sent as the request's
//     `params._meta["x402/payment"]`, per x402's MCP transport specification, v2) is assembled here by hand: @x402/mcp,
//     the x402 MCP client, is not on the npm registry this project installs from, so this is the one place a
//     hand-assembled transport is used.
//   - our own `_servicePayment` still works, on the same server.
// An unpaid call is ONE tool result carrying all three: the gate, the MPP challenge, the x402 PaymentRequired.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm";
import { McpClient } from "mppx/mcp-sdk/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceClient } from "agent-payments-sdk";
import { mintTokenFor, serviceClientMethod } from "agent-payments-sdk/mpp";
import { baseUrl, call } from "../helpers/http";
import { expectPaidCallEndToEnd, startMcpExample, type ExampleServer } from "../helpers/mcp-example";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const MPP_REQUIRED = "org.paymentauth/payment-required";
const MPP_CREDENTIAL = "org.paymentauth/credential";
const MPP_RECEIPT = "org.paymentauth/receipt";
const X402_REQUIRED = "x402/payment-required";
const X402_PAYMENT = "x402/payment";
const X402_RESPONSE = "x402/payment-response";

let seller: TestMerchant;
let payer: TestMerchant;
let examples: ExampleServer[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  [seller, payer] = await Promise.all([createTestMerchant("MCP transports seller"), createTestMerchant("MCP transports agent")]);
  const env = { SERVICE_URL: baseUrl(), SERVICE_API_KEY: seller.testKey, MERCHANT_ID: seller.merchantId, PRICE: "25", CURRENCY: "usd" };
  examples = await Promise.all([startMcpExample(env), startMcpExample(env)]);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(examples.map((e) => e.stop()));
});

async function connect(example: ExampleServer): Promise<Client> {
  const client = new Client({ name: "transports-test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${example.url}/mcp`)));
  clients.push(client);
  return client;
}

const totalRuns = async () => (await Promise.all(examples.map((e) => e.runs()))).reduce((sum, runs) => sum + runs.premium_quote, 0);
type ToolResult = Awaited<ReturnType<Client["callTool"]>>;
const metaOf = (result: ToolResult) => (result._meta ?? {}) as Record<string, any>;

async function paymentIntent(id: string) {
  return (await call("GET", `/v1/payment_intents/${id}`, { key: seller.testKey })).body;
}

describe("the example's paid tool over the standard MCP transports", () => {
  it("an unpaid call is ONE tool result: the gate (structuredContent and content[0]), the MPP challenge and the x402 PaymentRequired", async () => {
    const client = await connect(examples[0]);
    const before = await totalRuns();
    const result = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" } });
    expect(result.isError).toBe(true);
    const gate = {
      kind: "payment_required",
      merchant: seller.merchantId,
      amount: 25,
      currency: "USD",
      sku: "premium_quote",
      payEndpoint: `${baseUrl()}/v1/paywall/pay`,
    };
    expect(result.structuredContent).toEqual(gate);
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(gate);

    const mpp = metaOf(result)[MPP_REQUIRED];
    expect(mpp).toMatchObject({ httpStatus: 402, challenges: [{ method: "service", intent: "charge", realm: "mcp" }] });
    expect(mpp.challenges[0].request).toMatchObject({
      amount: "25",
      currency: "usd",
      recipient: seller.merchantId,
      externalId: "premium_quote",
    });
    expect(Date.parse(mpp.challenges[0].expires)).toBeGreaterThan(Date.now());

    const payTo = (await call("GET", "/x402/supported", { key: seller.testKey })).body.kinds[0].extra.payTo;
    expect(metaOf(result)[X402_REQUIRED]).toMatchObject({
      x402Version: 2,
      resource: { url: "mcp://tool/premium_quote" },
      accepts: [{ scheme: "exact", network: "eip155:84532", amount: "250000", payTo, extra: { name: "USDC", version: "2" } }],
    });
    expect(await totalRuns()).toBe(before);
  });

  it("mppx/mcp-sdk/client pays it: payment-required, then paid with a receipt, the tool ran once; the same credential again -> already_redeemed", async () => {
    const client = await connect(examples[0]);
    // Records what the wrapped client sends (installed before McpClient.wrap, which calls through it).
    const sent: { _meta?: Record<string, unknown> }[] = [];
    const callTool = client.callTool.bind(client);
    client.callTool = ((params: Parameters<Client["callTool"]>[0], ...rest: unknown[]) => {
      sent.push(structuredClone(params) as { _meta?: Record<string, unknown> });
      return (callTool as (...args: unknown[]) => ReturnType<Client["callTool"]>)(params, ...rest);
    }) as Client["callTool"];
    const payerClient = new ServiceClient({ baseUrl: baseUrl(), apiKey: payer.testKey });
    const minted: string[] = [];
    McpClient.wrap(client, {
      methods: [
        serviceClientMethod({ token: mintTokenFor(payerClient, { paymentMethod: "pm_card_visa", onMint: (t) => minted.push(t.id) }) }),
      ],
    });

    const before = await totalRuns();
    const paid = (await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" } })) as ToolResult & { receipt?: any };
    // First the payment-required answer (a call without a credential), then the paid retry.
    expect(sent).toHaveLength(2);
    expect(sent[0]._meta?.[MPP_CREDENTIAL]).toBeUndefined();
    const credential = sent[1]._meta?.[MPP_CREDENTIAL];
    expect(credential).toMatchObject({ challenge: { method: "service", intent: "charge" }, payload: { spt: minted[0] } });
    expect(minted).toHaveLength(1);

    expect(paid.isError).toBeFalsy();
    expect(JSON.parse((paid.content as { text: string }[])[0].text)).toMatchObject({ symbol: "ACME" });
    const paymentIntentId = (paid.payment as { paymentIntentId: string }).paymentIntentId;
    expect(paid.payment).toEqual({ status: "paid", paymentIntentId });
    expect(paid.receipt).toMatchObject({ method: "service", reference: paymentIntentId, status: "success" });
    expect(metaOf(paid)[MPP_RECEIPT]).toMatchObject({ reference: paymentIntentId });
    expect(await totalRuns()).toBe(before + 1);
    expect(await paymentIntent(paymentIntentId)).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      amountCaptured: 25,
      source: "mpp",
    });

    // The same credential again, through the other process (a plain client): already_redeemed, no second charge.
    const again = await (
      await connect(examples[1])
    ).callTool({ name: "premium_quote", arguments: { symbol: "acme" }, _meta: { [MPP_CREDENTIAL]: credential } });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ kind: "already_redeemed", result: "already_redeemed", paymentIntentId });
    expect(metaOf(again)[MPP_REQUIRED]).toBeUndefined(); // nothing to pay again: a wrapped client would not pay twice
    expect(await totalRuns()).toBe(before + 1);
    expect(await paymentIntent(paymentIntentId)).toMatchObject({ amountCaptured: 25 });
  });

  it("an MPP credential for a challenge this server did not issue (a changed amount) -> the gate with a fresh challenge saying why; nothing runs", async () => {
    const client = await connect(examples[1]);
    const unpaid = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" } });
    const challenge = metaOf(unpaid)[MPP_REQUIRED].challenges[0];
    const before = await totalRuns();
    const forged = { challenge: { ...challenge, request: { ...challenge.request, amount: "1" } }, payload: { spt: "spt_doesnotmatter" } };
    const result = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" }, _meta: { [MPP_CREDENTIAL]: forged } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ kind: "payment_required", sku: "premium_quote", amount: 25 });
    const mpp = metaOf(result)[MPP_REQUIRED];
    expect(mpp.problem).toMatchObject({ type: expect.stringMatching(/invalid-challenge$/) });
    expect(mpp.challenges[0].id).not.toBe(challenge.id);
    expect(metaOf(result)[X402_REQUIRED]).toMatchObject({ x402Version: 2 });
    expect(await totalRuns()).toBe(before);
  });

  it("x402 over MCP (x402Client + ExactEvmScheme, payload in params._meta['x402/payment']): paid once with its settlement; the same payload again -> already_redeemed", async () => {
    const client = await connect(examples[1]);
    const unpaid = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" } });
    const paymentRequired = metaOf(unpaid)[X402_REQUIRED];
    const account = privateKeyToAccount(generatePrivateKey());
    const payload = await new x402Client().register("eip155:84532", new ExactEvmScheme(account)).createPaymentPayload(paymentRequired);
    expect(payload).toMatchObject({ x402Version: 2, accepted: { amount: "250000" } });

    const before = await totalRuns();
    const paid = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" }, _meta: { [X402_PAYMENT]: payload } });
    expect(paid.isError).toBeFalsy();
    expect(JSON.parse((paid.content as { text: string }[])[0].text)).toMatchObject({ symbol: "ACME" });
    const paymentIntentId = (paid.payment as { paymentIntentId: string }).paymentIntentId;
    expect(paid.payment).toEqual({ status: "paid", paymentIntentId });
    expect(metaOf(paid)[X402_RESPONSE]).toMatchObject({ success: true, network: "eip155:84532", payer: account.address });
    expect(await totalRuns()).toBe(before + 1);
    expect(await paymentIntent(paymentIntentId)).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      amount: 25,
      source: "x402",
      payer: account.address,
    });

    // The same payload again, through the other process: the facilitator answers it as settled, the SDK already_redeemed.
    const again = await (
      await connect(examples[0])
    ).callTool({ name: "premium_quote", arguments: { symbol: "acme" }, _meta: { [X402_PAYMENT]: payload } });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ kind: "already_redeemed", result: "already_redeemed", paymentIntentId });
    expect(metaOf(again)[X402_REQUIRED]).toBeUndefined();
    expect(await totalRuns()).toBe(before + 1);
    expect(await paymentIntent(paymentIntentId)).toMatchObject({ amountCaptured: 25 });
  });

  it("an x402 payload with a changed amount -> the gate, the PaymentRequired naming the refusal; nothing runs, nothing is charged", async () => {
    const client = await connect(examples[0]);
    const unpaid = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" } });
    const account = privateKeyToAccount(generatePrivateKey());
    const payload = await new x402Client()
      .register("eip155:84532", new ExactEvmScheme(account))
      .createPaymentPayload(metaOf(unpaid)[X402_REQUIRED]);
    const inner = payload.payload as { authorization: { value: string } };
    const tampered = { ...payload, payload: { ...inner, authorization: { ...inner.authorization, value: "1" } } };
    const before = await totalRuns();
    const result = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" }, _meta: { [X402_PAYMENT]: tampered } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ kind: "payment_required", sku: "premium_quote" });
    const required = metaOf(result)[X402_REQUIRED];
    expect(required).toMatchObject({ x402Version: 2, accepts: [{ amount: "250000" }] });
    expect(required.error).not.toBe("Payment required");
    expect(metaOf(result)[MPP_REQUIRED]).toMatchObject({ challenges: [{ method: "service" }] });
    expect(await totalRuns()).toBe(before);
  });

  it("our own _servicePayment still works on the same server (gate -> pay -> paid -> already_redeemed)", async () => {
    await expectPaidCallEndToEnd({ examples, connect, seller, payer, serviceUrl: baseUrl() });
  });
});
