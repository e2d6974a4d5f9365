// meteredPaywall with a BUFFERING serviceMeteringBackend against the real service (issue 19 item 3):
// post-paid records are answered "buffered" at once and reach the service in a few batch requests
// (POST /v1/meters/usage_batches) on size, flush() and close(); a batch whose answer was lost is re-sent by
// the next flush under the same Idempotency-Key and counts once; the books (billed + accrued) equal the
// calls; refused records reach onRefused; prepaid calls stay unbuffered (reserved and committed at once).
import { afterAll, describe, expect, it } from "vitest";
import { meteredPaywall, ServiceClient, serviceMeteringBackend, type RefusedUsage } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";
import { tickUntilSettled } from "../helpers/meters";
import { startScriptedProxy, type ScriptedProxy } from "../helpers/scripted-proxy";

const PRICE = 400_000; // 0.4 cent in base units
const PER_MINOR = 1_000_000;
type Args = { requestId: string };

const opened: ScriptedProxy[] = [];
afterAll(async () => {
  await Promise.all(opened.map((p) => p.close()));
});

async function setup() {
  const merchant = await createTestMerchant("Buffered metering");
  const client = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
  const payer = await client.customers.create({ name: "agent" });
  await client.customers.fund(payer.id, { amount: 10_000, currency: "usd" });
  const postpaid = await client.meters.create({
    customerId: payer.id,
    currency: "usd",
    thresholdMinor: 1,
    prepaid: false,
    paymentMethod: "pm_card_visa",
  });
  return { merchant, client, payer, postpaid };
}

const handler = async (_args: Args, _extra: unknown) => ({ content: [{ type: "text" as const, text: "ok" }] });
const batchRequests = (proxy: ScriptedProxy) => proxy.seen.filter((r) => r.path === "/v1/meters/usage_batches");

describe("meteredPaywall with a buffering backend", () => {
  it("300 calls (50 of them retries) reach the service in a few batches, each counted once; the books balance", async () => {
    const { merchant, client, postpaid } = await setup();
    const proxy = await startScriptedProxy(baseUrl(), () => "forward");
    opened.push(proxy);
    const refused: RefusedUsage[] = [];
    const backend = serviceMeteringBackend({
      baseUrl: proxy.url,
      apiKey: merchant.testKey,
      timeoutMs: 20_000,
      buffer: { maxBatchSize: 100, flushIntervalMs: 0, onRefused: (r) => refused.push(...r) },
    });
    const tool = meteredPaywall<Args>({
      backend,
      meterId: postpaid.id,
      unitPriceMinor: PRICE,
      quantity: () => 1,
      prepaid: false,
      idempotencyKey: (a) => a.requestId,
    })(handler);

    const calls = [...Array.from({ length: 250 }, (_, i) => `call-${i}`), ...Array.from({ length: 50 }, (_, i) => `call-${i * 5}`)];
    const results = await Promise.all(calls.map((requestId) => tool({ requestId }, {})));
    expect(results.every((r) => r.metering?.status === "buffered" && r.metering.amountBase === PRICE)).toBe(true);
    await backend.flush!();
    expect(backend.close).toBeTypeOf("function");

    const sent = batchRequests(proxy);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.length).toBeLessThanOrEqual(5); // 300 records in batches of at most 100, not 300 requests
    expect(sent.every((r) => JSON.parse(r.body).records.length <= 100)).toBe(true);
    expect(sent.reduce((sum, r) => sum + JSON.parse(r.body).records.length, 0)).toBe(300);
    expect(proxy.seen.filter((r) => r.path.endsWith("/usage"))).toHaveLength(0); // no per-record request
    expect(refused).toEqual([]);

    await tickUntilSettled(postpaid.id);
    const meter = await client.meters.retrieve(postpaid.id);
    expect(meter.usedBase).toBe(250 * PRICE);
    expect(meter.billedMinor * PER_MINOR + meter.accruedBase).toBe(250 * PRICE);
    await backend.close!();
  });

  it("a batch whose answer was lost is re-sent by the next flush with the same Idempotency-Key and counts once", async () => {
    const { merchant, client, postpaid } = await setup();
    let batches = 0;
    const proxy = await startScriptedProxy(baseUrl(), (_n, req) =>
      req.path === "/v1/meters/usage_batches" && batches++ === 0 ? "forward-then-drop" : "forward",
    );
    opened.push(proxy);
    // No retries in the client: the buffer's own next flush is the retry.
    const errors: unknown[] = [];
    const backend = serviceMeteringBackend({
      baseUrl: proxy.url,
      apiKey: merchant.testKey,
      timeoutMs: 5_000,
      maxRetries: 0,
      buffer: { flushIntervalMs: 0, onFlushError: (e) => errors.push(e) },
    });
    for (let i = 0; i < 20; i++)
      expect(await backend.recordUsage({ meterId: postpaid.id, quantity: 2, unitPriceMinor: PRICE, idempotencyKey: `lost-${i}` })).toEqual({
        ok: true,
        buffered: true,
      });
    await expect(backend.flush!()).rejects.toThrow();
    expect((await client.meters.retrieve(postpaid.id)).usedBase).toBe(40 * PRICE); // the service did count it
    // More records arrive; the next flush re-sends the lost batch first, under its key, then the new one.
    for (let i = 20; i < 25; i++)
      await backend.recordUsage({ meterId: postpaid.id, quantity: 2, unitPriceMinor: PRICE, idempotencyKey: `lost-${i}` });
    await backend.close!();
    const sent = batchRequests(proxy);
    expect(sent).toHaveLength(3);
    expect(sent[1].headers["idempotency-key"]).toBe(sent[0].headers["idempotency-key"]);
    expect(sent[1].body).toBe(sent[0].body);
    expect(sent[2].headers["idempotency-key"]).not.toBe(sent[0].headers["idempotency-key"]);
    expect((await client.meters.retrieve(postpaid.id)).usedBase).toBe(50 * PRICE);
  });

  it("close() sends what is left; refused records reach onRefused; prepaid calls are never buffered", async () => {
    const { merchant, client, payer, postpaid } = await setup();
    const closedMeter = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 100,
      prepaid: false,
      paymentMethod: "pm_card_visa",
    });
    await client.meters.close(closedMeter.id);
    const prepaid = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 100,
      prepaid: true,
      budgetMinor: 10,
      paymentMethod: "pm_card_visa",
    });
    const refused: RefusedUsage[] = [];
    const backend = serviceMeteringBackend({
      baseUrl: baseUrl(),
      apiKey: merchant.testKey,
      timeoutMs: 20_000,
      buffer: { flushIntervalMs: 60_000, onRefused: (r) => refused.push(...r) },
    });

    const prepaidTool = meteredPaywall<Args>({ backend, meterId: prepaid.id, unitPriceMinor: PRICE, quantity: () => 1, prepaid: true })(
      handler,
    );
    const result = await prepaidTool({ requestId: "p1" }, {});
    expect(result.metering?.status).toBe("committed");
    expect((await client.meters.retrieve(prepaid.id)).usedBase).toBe(PRICE); // at once, before any flush

    await backend.recordUsage({ meterId: postpaid.id, quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "a" });
    await backend.recordUsage({ meterId: closedMeter.id, quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "b" });
    expect((await client.meters.retrieve(postpaid.id)).usedBase).toBe(0); // buffered, not yet sent
    await backend.close!();
    expect((await client.meters.retrieve(postpaid.id)).usedBase).toBe(3 * PRICE);
    expect(refused.map((r) => [r.record.idempotencyKey, r.error.code])).toEqual([["b", "CONFLICT"]]);
    await expect(backend.recordUsage({ meterId: postpaid.id, quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "c" })).rejects.toThrow(
      /closed/,
    );
  });
});
