// client.meters.recordUsageBatch against the real service: typed per-record results, a malformed batch as a
// ServiceError 400, and the SDK's own retry after a lost answer counting every record once.
import { afterAll, describe, expect, it } from "vitest";
import { ServiceClient, ServiceError, type MeterUsageBatchRecord } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";
import { createCustomer } from "../helpers/payments";
import { startScriptedProxy, type ScriptedProxy } from "../helpers/scripted-proxy";

const PRICE = 400_000;
const opened: ScriptedProxy[] = [];
afterAll(async () => {
  await Promise.all(opened.map((p) => p.close()));
});

async function setup(url = baseUrl()) {
  const merchant = await createTestMerchant("SDK usage batches");
  const client = new ServiceClient({ baseUrl: url, apiKey: merchant.testKey, maxRetries: 3, initialRetryDelayMs: 20, timeoutMs: 10_000 });
  const direct = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey, maxRetries: 0 });
  const customer = await createCustomer(merchant.testKey);
  const meter = await direct.meters.create({
    customerId: customer.id,
    currency: "usd",
    thresholdMinor: 100,
    prepaid: false,
    paymentMethod: "pm_card_visa",
  });
  return { client, direct, meter };
}

describe("meters.recordUsageBatch", () => {
  it("answers a result per record; a malformed batch is a ServiceError 400 naming the record", async () => {
    const { client, meter } = await setup();
    const records: MeterUsageBatchRecord[] = [
      { meterId: meter.id, quantity: 2, unitPriceMinor: PRICE, idempotencyKey: "a", timestamp: new Date().toISOString() },
      { meterId: "mtr_doesnotexist000000000000", quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "b" },
    ];
    const batch = await client.meters.recordUsageBatch(records);
    expect(batch).toMatchObject({ object: "usage_batch", accepted: 1, duplicates: 0, refused: 1 });
    expect(batch.results[0]).toEqual({
      idempotencyKey: "a",
      meterId: meter.id,
      status: "accepted",
      usageRecordId: expect.stringMatching(/^mu_/),
    });
    expect(batch.results[1]).toMatchObject({ status: "refused", error: { code: "NOT_FOUND" } });
    const accepted = batch.results[0];
    if (accepted.status === "refused") throw new Error("the first record was refused");
    expect((await client.meters.recordUsageBatch(records.slice(0, 1))).results[0]).toMatchObject({
      status: "duplicate",
      usageRecordId: accepted.usageRecordId,
    });

    const bad = await client.meters
      .recordUsageBatch([
        { ...records[0], idempotencyKey: "c" },
        { ...records[0], quantity: 0 },
      ])
      .catch((e) => e);
    expect(ServiceError.is(bad)).toBe(true);
    expect([bad.status, bad.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(bad.details.fields.map((f: { path: string }) => f.path)).toContain("records.1.quantity");
    expect((await client.meters.retrieve(meter.id)).usedBase).toBe(2 * PRICE);
  });

  it("a response lost after the service counted the batch: the SDK's retry is replayed, each record counted once", async () => {
    const proxy = await startScriptedProxy(baseUrl(), (n) => (n === 0 ? "forward-then-drop" : "forward"));
    opened.push(proxy);
    const { client, direct, meter } = await setup(proxy.url);
    const records = Array.from({ length: 10 }, (_, i) => ({
      meterId: meter.id,
      quantity: 1,
      unitPriceMinor: PRICE,
      idempotencyKey: `r${i}`,
    }));
    const batch = await client.meters.recordUsageBatch(records);
    expect(proxy.seen.length).toBe(2);
    expect(new Set(proxy.seen.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    expect(batch.accepted).toBe(10); // the first answer, replayed under the same Idempotency-Key
    expect((await direct.meters.retrieve(meter.id)).usedBase).toBe(10 * PRICE);
  });
});
