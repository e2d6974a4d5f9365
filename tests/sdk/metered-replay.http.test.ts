// Issue 14 item 1 through the SDK against a running service: a prepaid call runs its paid handler only on
// a hold it created itself. serviceMeteringBackend never reports a reused key as a new hold (after its
// call finished, or while another call holds it), concurrent copies with one key get one hold between
// them, and meteredPaywall reserves every call under a key of its own with at least one unit.
import { describe, expect, it } from "vitest";
import { meteredPaywall, ServiceClient, serviceMeteringBackend } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";

const PRICE = 400_000; // 0.4 cent, in base units

async function setup(budgetMinor = 5) {
  const merchant = await createTestMerchant("Metered replay SDK test");
  const client = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
  const backend = serviceMeteringBackend({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
  const payer = await client.customers.create({ name: "agent" });
  const meter = await client.meters.create({
    customerId: payer.id,
    currency: "usd",
    thresholdMinor: 100,
    prepaid: true,
    budgetMinor,
    paymentMethod: "pm_card_visa",
  });
  return { client, backend, meter };
}

describe("serviceMeteringBackend.reserve: only a hold this call created is ok", () => {
  it("a key reused after its call was committed or released is already_used, never a new hold", async () => {
    const { client, backend, meter } = await setup(1);
    const params = { meterId: meter.id, quantity: 2, unitPriceMinor: PRICE, idempotencyKey: "agent-chose-this" };
    const first = await backend.reserve(params);
    expect(first).toMatchObject({ ok: true, created: true });
    if (!first.ok) throw new Error("unreachable");
    await backend.commit({ meterId: meter.id, reservationId: first.reservationId });
    // The budget (1,000,000) has 200,000 left: the replay is told it is used, not "ok" and not a top-up gate.
    expect(await backend.reserve(params)).toMatchObject({
      ok: false,
      reason: "already_used",
      reservationId: first.reservationId,
      status: "committed",
    });

    const second = await backend.reserve({ ...params, quantity: 1, unitPriceMinor: 100_000, idempotencyKey: "released-one" });
    if (!second.ok) throw new Error(`not reserved: ${JSON.stringify(second)}`);
    await backend.release({ meterId: meter.id, reservationId: second.reservationId });
    expect(await backend.reserve({ ...params, quantity: 1, unitPriceMinor: 100_000, idempotencyKey: "released-one" })).toMatchObject({
      ok: false,
      reason: "already_used",
      status: "released",
    });
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ usedBase: 2 * PRICE, reservedBase: 0 });
  });

  it("10 concurrent reserves with one new key: exactly one ok, the others already_used (held)", async () => {
    const { client, backend, meter } = await setup();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        backend.reserve({ meterId: meter.id, quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "one-key" }),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && o.reason === "already_used" && o.status === "held")).toHaveLength(9);
    expect((await client.meters.retrieve(meter.id)).reservedBase).toBe(PRICE);
  });
});

describe("meteredPaywall prepaid over the service", () => {
  it("a call whose quantity is 0 (units the caller sent) still reserves and commits one unit", async () => {
    const { client, backend, meter } = await setup();
    let runs = 0;
    const tool = meteredPaywall<{ units?: number }>({
      backend,
      meterId: meter.id,
      unitPriceMinor: PRICE,
      quantity: (args) => args.units,
      prepaid: true,
    })(async () => {
      runs++;
      return { content: [{ type: "text" as const, text: "ok" }] };
    });
    const result = await tool({ units: 0 }, {});
    expect(result.metering).toMatchObject({ quantity: 1, amountBase: PRICE, status: "committed" });
    expect(runs).toBe(1);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ usedBase: PRICE, reservedBase: 0 });
  });

  it("the same call three times, and five at once: every run is billed (each call its own key)", async () => {
    const { client, backend, meter } = await setup();
    let runs = 0;
    const tool = meteredPaywall<{ q: string }>({ backend, meterId: meter.id, unitPriceMinor: PRICE, quantity: () => 1, prepaid: true })(
      async () => {
        runs++;
        return { content: [{ type: "text" as const, text: "ok" }] };
      },
    );
    for (let i = 0; i < 3; i++) expect((await tool({ q: "same" }, {})).metering?.status).toBe("committed");
    const burst = await Promise.all(Array.from({ length: 5 }, () => tool({ q: "same" }, {})));
    expect(burst.every((r) => r.metering?.status === "committed")).toBe(true);
    expect(runs).toBe(8);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ usedBase: 8 * PRICE, reservedBase: 0 });
  });
});
