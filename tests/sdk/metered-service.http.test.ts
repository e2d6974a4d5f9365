// meteredPaywall through the SDK's serviceMeteringBackend against a real running service (issue 5,
// "Metered" acceptance): sub-cent post-paid calls settle one aggregate PaymentIntent at the threshold with
// the fraction carried; a retried usage key counts once; an exhausted prepaid budget gates with the
// service's top-up prompt; a throwing handler is not billed; 200 concurrent calls bill exactly 200 x price.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "../../lib/db";
import { meteredPaywall, ServiceClient, serviceMeteringBackend, type Meter } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";
import { tickUntilSettled } from "../helpers/meters";
import { tick } from "../helpers/payments";

const PRICE = 400_000; // 0.4 cent, in base units (1,000,000 per cent)
type Args = { requestId?: string; units?: number; fail?: boolean };

async function setup(url = baseUrl()) {
  const merchant = await createTestMerchant("Metered SDK test");
  const client = new ServiceClient({ baseUrl: url, apiKey: merchant.testKey, timeoutMs: 20_000 });
  const backend = serviceMeteringBackend({ baseUrl: url, apiKey: merchant.testKey, timeoutMs: 20_000 });
  const payer = await client.customers.create({ name: "agent" });
  await client.customers.fund(payer.id, { amount: 10_000, currency: "usd" });
  const runs: Args[] = [];
  const handler = async (args: Args, _extra: unknown) => {
    runs.push(args);
    if (args.fail) throw new Error("tool crashed");
    return { content: [{ type: "text" as const, text: "ok" }] };
  };
  return { merchant, client, backend, payer, runs, handler };
}

interface MeterPayment {
  amount: number;
  amountRefunded: number;
  status: string;
  meterId: string;
  meterPurpose: "settlement" | "funding";
}
const meterPayments = async (client: ServiceClient, meterId: string) =>
  (await client.request<{ data: MeterPayment[] }>("GET", `/v1/payment_intents?meterId=${meterId}&limit=100`)).data;
const aggregatePayments = async (client: ServiceClient, meterId: string) =>
  (await meterPayments(client, meterId)).filter((p) => p.meterPurpose === "settlement");

describe("meteredPaywall over the service: post-paid", () => {
  it("0.4-cent calls x3 with a 1-cent threshold: exactly one PaymentIntent of 1, 0.2 cent carried; a retried key counts once", async () => {
    const { client, backend, payer, runs, handler } = await setup();
    const meter = await client.meters.create({ customerId: payer.id, currency: "usd", thresholdMinor: 1, prepaid: false });
    const tool = meteredPaywall<Args>({
      backend,
      meterId: meter.id,
      unitPriceMinor: PRICE,
      quantity: (args) => args.units,
      prepaid: false,
      idempotencyKey: (args) => args.requestId!,
    })(handler);

    for (const requestId of ["c1", "c2", "c3"]) {
      const result = await tool({ requestId }, {});
      expect(result.metering).toEqual({ meterId: meter.id, quantity: 1, unitPriceMinor: PRICE, amountBase: PRICE, status: "recorded" });
    }
    const retried = await tool({ requestId: "c3" }, {}); // the agent retries its last call: it runs, but is metered once
    expect(retried.metering?.status).toBe("recorded");
    expect(runs).toHaveLength(4);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ accruedBase: 1_200_000, usedBase: 1_200_000 });

    await tickUntilSettled(meter.id);
    const payments = await aggregatePayments(client, meter.id);
    expect(payments.map((p) => [p.amount, p.status])).toEqual([[1, "settled"]]);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ accruedBase: 200_000, billedMinor: 1, settlementCount: 1 });
    expect((await client.customers.retrieve(payer.id)) as unknown).toBeTruthy();
    const wallet = await getDb().testWallet.findUniqueOrThrow({
      where: { customerId_currency: { customerId: payer.id, currency: "USD" } },
    });
    expect(wallet.balance).toBe(9_999);

    await tickUntilSettled(meter.id); // nothing new: still one
    expect(await aggregatePayments(client, meter.id)).toHaveLength(1);
  });

  it("a failed call (isError) is not metered", async () => {
    const { client, backend, payer } = await setup();
    const meter = await client.meters.create({ customerId: payer.id, currency: "usd", thresholdMinor: 1, prepaid: false });
    const tool = meteredPaywall<Args>({
      backend,
      meterId: meter.id,
      unitPriceMinor: PRICE,
      quantity: () => 1,
      prepaid: false,
      idempotencyKey: (a) => a.requestId!,
    })(async () => ({ content: [{ type: "text" as const, text: "bad input" }], isError: true }));
    expect((await tool({ requestId: "x" }, {})).isError).toBe(true);
    expect((await client.meters.retrieve(meter.id)).usedBase).toBe(0);
  });
});

describe("meteredPaywall over the service: prepaid", () => {
  it("an exhausted budget gates the call with the service's top-up prompt (official MCP client); a top-up lets it run", async () => {
    const { client, backend, payer, runs, handler } = await setup();
    const meter = await client.meters.create({ customerId: payer.id, currency: "usd", thresholdMinor: 100, prepaid: true, budgetMinor: 1 });
    const server = new McpServer({ name: "metered", version: "1.0.0" });
    server.registerTool(
      "search",
      { inputSchema: { units: z.number().optional() } },
      meteredPaywall<Args>({ backend, meterId: meter.id, unitPriceMinor: PRICE, quantity: (args) => args.units, prepaid: true })(handler),
    );
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const agent = new Client({ name: "agent", version: "1.0.0" });
    await Promise.all([server.connect(serverTransport), agent.connect(clientTransport)]);
    try {
      const first = await agent.callTool({ name: "search", arguments: { units: 2 } }); // 0.8 of the 1-cent budget
      expect(first.isError).toBeFalsy();
      expect(first.metering).toMatchObject({ status: "committed", amountBase: 2 * PRICE });

      const gated = await agent.callTool({ name: "search", arguments: {} }); // 0.4 more does not fit in 0.2
      expect(gated.isError).toBe(true);
      expect(runs).toHaveLength(1);
      const gate = gated.structuredContent as Record<string, any>;
      expect(gate).toMatchObject({
        kind: "payment_required",
        reasonCode: "insufficient_budget",
        meterId: meter.id,
        amountBase: PRICE,
        topUpUrl: `${baseUrl()}/v1/meters/${meter.id}/top-up`,
        details: {
          reason: "insufficient_budget",
          availableBase: 200_000,
          requiredBase: PRICE,
          topUp: { method: "POST", minimumAmountMinor: 1, currency: "USD" },
        },
      });
      expect(gate.message).toMatch(/top up/);
      expect(JSON.parse((gated.content as { text: string }[])[0].text)).toEqual(gate);

      await client.meters.topUp(meter.id, { amountMinor: 1 });
      const after = await agent.callTool({ name: "search", arguments: {} });
      expect(after.metering).toMatchObject({ status: "committed" });
      expect(runs).toHaveLength(2);
      expect(await client.meters.retrieve(meter.id)).toMatchObject({
        usedBase: 3 * PRICE,
        reservedBase: 0,
        availableBase: 2_000_000 - 3 * PRICE,
      });
    } finally {
      await agent.close();
      await server.close();
    }
  });

  it("a handler that throws is not billed: its reservation is released", async () => {
    const { client, backend, payer, runs, handler } = await setup();
    const meter = await client.meters.create({ customerId: payer.id, currency: "usd", thresholdMinor: 1, prepaid: true, budgetMinor: 1 });
    const tool = meteredPaywall<Args>({ backend, meterId: meter.id, unitPriceMinor: PRICE, quantity: () => 1, prepaid: true })(handler);
    await expect(tool({ fail: true }, {})).rejects.toThrow("tool crashed");
    expect(runs).toHaveLength(1);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({
      usedBase: 0,
      reservedBase: 0,
      accruedBase: 0,
      availableBase: 1_000_000,
    });
    const rows = await getDb().meterReservation.findMany({ where: { meterId: meter.id } });
    expect(rows.map((r) => [r.status, r.releaseReason])).toEqual([["released", "failed"]]);
    await tickUntilSettled(meter.id);
    // Only the funding was ever charged; closing returns it all, as nothing was drawn.
    expect((await meterPayments(client, meter.id)).map((p) => [p.meterPurpose, p.amount])).toEqual([["funding", 1]]);
    await client.meters.close(meter.id);
    await tickUntilSettled(meter.id);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ fundedMinor: 1, refundedMinor: 1, billedMinor: 0 });
  });
});

describe("meteredPaywall over the service: concurrency", () => {
  // 200 calls x 2 requests each, beyond the default 120 requests per minute of one key: the shared server's limit is higher.
  const server = { url: baseUrl() };

  /** 200 concurrent calls in two waves of 100, with ticks settling WHILE usage is still arriving. */
  async function hammer(meter: Meter, tool: (args: Args, extra: unknown) => Promise<{ metering?: unknown }>, client: ServiceClient) {
    for (const wave of [0, 1]) {
      let ticking = true;
      const ticker = (async () => {
        while (ticking) await tick(server.url);
      })();
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => tool({ requestId: `call-${wave}-${i}` }, {})));
      ticking = false;
      await ticker;
      expect(results.every((r) => r.metering)).toBe(true);
      await tickUntilSettled(meter.id, server.url);
    }
    expect((await client.meters.retrieve(meter.id)).usedBase).toBe(200 * PRICE);
  }

  it("200 concurrent post-paid calls bill exactly 200 x price", async () => {
    const { client, backend, payer, handler } = await setup(server.url);
    const meter = await client.meters.create({ customerId: payer.id, currency: "usd", thresholdMinor: 5, prepaid: false });
    const tool = meteredPaywall<Args>({
      backend,
      meterId: meter.id,
      unitPriceMinor: PRICE,
      quantity: () => 1,
      prepaid: false,
      idempotencyKey: (a) => a.requestId!,
    })(handler);
    await hammer(meter, tool, client);
    const open = await client.meters.retrieve(meter.id);
    const payments = await aggregatePayments(client, meter.id);
    expect(payments.length).toBeGreaterThanOrEqual(2); // a settlement after each wave at least
    const billed = payments.reduce((sum, p) => sum + p.amount, 0);
    expect(billed * 1_000_000 + open.accruedBase).toBe(200 * PRICE); // every base unit either billed or carried
    expect(billed).toBe(open.billedMinor);

    await client.meters.close(meter.id);
    await tickUntilSettled(meter.id, server.url);
    const all = await aggregatePayments(client, meter.id);
    expect(all.every((p) => p.status === "settled")).toBe(true);
    expect(all.reduce((sum, p) => sum + p.amount, 0)).toBe(80); // 200 x 0.4 cent, exactly
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ status: "closed", accruedBase: 0, billedMinor: 80 });
  });

  it("200 concurrent prepaid calls bill exactly 200 x price and never exceed the budget", async () => {
    const { client, backend, payer, handler } = await setup(server.url);
    const meter = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 5,
      prepaid: true,
      budgetMinor: 80,
      paymentMethod: "pm_card_visa",
    });
    const tool = meteredPaywall<Args>({ backend, meterId: meter.id, unitPriceMinor: PRICE, quantity: () => 1, prepaid: true })(handler);
    await hammer(meter, tool, client);
    const gated = (await tool({}, {})) as { structuredContent?: unknown }; // the 80-cent budget is exactly spent
    expect(gated.structuredContent).toMatchObject({ reasonCode: "insufficient_budget" });
    // Paid up front, once: the funding is the only charge, and closing draws all of it (nothing to return).
    await client.meters.close(meter.id);
    await tickUntilSettled(meter.id, server.url);
    expect((await meterPayments(client, meter.id)).map((p) => [p.meterPurpose, p.amount, p.amountRefunded])).toEqual([["funding", 80, 0]]);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({
      status: "closed",
      usedBase: 200 * PRICE,
      billedMinor: 80,
      fundedMinor: 80,
      refundedMinor: 0,
    });
  });
});
