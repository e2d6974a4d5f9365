// The agent funds the budget itself (docs/meters.md, "Funding by the payer"): a merchant's MCP tool behind
// meteredPaywall (prepaid, serviceMeteringBackend with the MERCHANT's key) gates an agent with
// insufficient_budget; the gate names `fundUrl`; the agent, with its OWN account's key, calls
// `meters.fund` there from its own customer's wallet, and its retry of the tool runs and is billed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "../../lib/db";
import { meteredPaywall, ServiceClient, ServiceError, serviceMeteringBackend, type TopUpGate } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";

const PRICE = 400_000; // 0.4 cent in base units

async function walletBalance(customerId: string): Promise<number> {
  return (await getDb().testWallet.findUniqueOrThrow({ where: { customerId_currency: { customerId, currency: "USD" } } })).balance;
}

describe("meteredPaywall's top-up gate: the agent funds the budget with its own key", () => {
  it("gated by insufficient_budget, the agent calls meters.fund at fundUrl with its own wallet and the retry runs", async () => {
    // The merchant (payee): its meter for this agent, funded with 1 cent, and its metered tool.
    const merchant = await createTestMerchant("Metered seller");
    const seller = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
    const customer = await seller.customers.create({ name: "agent as the seller's customer" });
    const meter = await seller.meters.create({
      customerId: customer.id,
      currency: "usd",
      thresholdMinor: 100,
      prepaid: true,
      budgetMinor: 1,
      paymentMethod: "pm_card_visa",
    });
    const runs: unknown[] = [];
    const server = new McpServer({ name: "metered", version: "1.0.0" });
    server.registerTool(
      "search",
      { inputSchema: { units: z.number().optional() } },
      meteredPaywall<{ units?: number }>({
        backend: serviceMeteringBackend({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 }),
        meterId: meter.id,
        unitPriceMinor: PRICE,
        quantity: (args) => args.units,
        prepaid: true,
      })(async (args) => {
        runs.push(args);
        return { content: [{ type: "text" as const, text: "found" }] };
      }),
    );

    // The agent: its own account and key, and its own customer's wallet to pay from.
    const agentAccount = await createTestMerchant("Agent's own account");
    const agentService = new ServiceClient({ baseUrl: baseUrl(), apiKey: agentAccount.testKey, timeoutMs: 20_000 });
    const wallet = await agentService.customers.create({ name: "agent wallet" });
    await agentService.customers.fund(wallet.id, { amount: 500, currency: "usd" });

    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const agent = new Client({ name: "agent", version: "1.0.0" });
    await Promise.all([server.connect(serverTransport), agent.connect(clientTransport)]);
    try {
      expect((await agent.callTool({ name: "search", arguments: { units: 2 } })).metering).toMatchObject({ status: "committed" }); // 0.8 of 1 cent
      const gated = await agent.callTool({ name: "search", arguments: { units: 3 } }); // 1.2 cent does not fit in 0.2
      expect(gated.isError).toBe(true);
      expect(runs).toHaveLength(1);
      const gate = gated.structuredContent as TopUpGate;
      const fundPath = `/v1/meters/${meter.id}/fund`;
      expect(gate).toMatchObject({
        kind: "payment_required",
        reasonCode: "insufficient_budget",
        meterId: meter.id,
        minimumAmountMinor: 1,
        topUpUrl: expect.stringMatching(new RegExp(`/v1/meters/${meter.id}/top-up$`)),
        fundUrl: `${baseUrl()}${fundPath}`,
        details: { topUp: { payerUrl: expect.stringMatching(new RegExp(`${fundPath}$`)) } },
      });
      // The prompt names the operation through the agent's own client, never "send your key to this URL".
      expect(gate.message).toContain(`meters.fund("${meter.id}"`);
      expect(gate.message).toMatch(/your own API key/);
      expect(gate.message).not.toContain(gate.fundUrl);
      expect(new URL(gate.fundUrl as string).pathname).toBe(fundPath); // the path meters.fund posts to

      // The merchant's top-up is not the agent's to call: its key does not see the meter.
      const refused = await agentService.meters.topUp(meter.id, { amountMinor: 1 }).catch((err: unknown) => err);
      expect(ServiceError.is(refused) && refused.status).toBe(404);

      const funding = await agentService.meters.fund(meter.id, {
        amountMinor: gate.minimumAmountMinor!,
        currency: "usd",
        paymentMethod: wallet.id,
      });
      expect(funding).toEqual({
        object: "meter_funding",
        meterId: meter.id,
        paymentIntentId: expect.stringMatching(/^pi_/),
        status: "captured",
        amount: 1,
        currency: "USD",
        livemode: false,
      });
      expect(await walletBalance(wallet.id)).toBe(499);

      const retried = await agent.callTool({ name: "search", arguments: { units: 3 } });
      expect(retried.isError).toBeFalsy();
      expect(retried.metering).toMatchObject({ status: "committed", amountBase: 3 * PRICE });
      expect(runs).toHaveLength(2);
      expect(await seller.meters.retrieve(meter.id)).toMatchObject({ fundedMinor: 2, usedBase: 5 * PRICE, availableBase: 0 });
      // The seller sees that a customer wallet paid, not the agent's own customer id.
      const payment = await seller.paymentIntents.retrieve(funding.paymentIntentId);
      expect(payment).toMatchObject({ paymentMethod: "customer_wallet", customerId: customer.id, meterPurpose: "funding" });
    } finally {
      await agent.close();
    }
  });
});
