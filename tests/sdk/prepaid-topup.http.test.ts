// The metered paywall's two gates against a real running service, driven the way an agent's tool host
// uses the SDK: a prepaid meter with a small FUNDED budget gates with insufficient_budget when it runs out,
// a top-up charged to a test card raises it and the retried call runs; a declined top-up card is a
// ServiceError 402 naming its PaymentIntent and leaves the budget as it was; a post-paid meter made past
// due by a declined aggregate charge gates with meter_past_due (the handler does not run) until the
// outstanding amount is collected through retry-payment.
import { describe, expect, it } from "vitest";
import { meteredPaywall, ServiceClient, ServiceError, serviceMeteringBackend, type PaymentIntent } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";
import { tickUntil } from "../helpers/meters";

const PRICE = 400_000; // 0.4 cent, in base units (1,000,000 per cent)
type Args = { units?: number; requestId?: string };

async function setup() {
  const merchant = await createTestMerchant("Prepaid top-up SDK test");
  const client = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
  const payer = await client.customers.create({ name: "agent" });
  const runs: Args[] = [];
  const handler = async (args: Args, _extra: unknown) => {
    runs.push(args);
    return { content: [{ type: "text" as const, text: "ok" }] };
  };
  return { merchant, client, payer, runs, handler };
}

const meterPayments = async (client: ServiceClient, meterId: string) =>
  (await client.request<{ data: PaymentIntent[] }>("GET", `/v1/payment_intents?meterId=${meterId}&limit=100`)).data;

const gateOf = (result: object) => (result as { structuredContent?: Record<string, any> }).structuredContent ?? {};

describe("prepaid meter: the top-up gate and a charged top-up", () => {
  it("a funded budget of 1 cent runs out; the gate names the minimum top-up; topUp with a test card funds it and the retry runs", async () => {
    const { merchant, client, payer, runs, handler } = await setup();
    const meter = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 100,
      prepaid: true,
      budgetMinor: 1,
      paymentMethod: "pm_card_visa",
    });
    expect(meter).toMatchObject({ prepaid: true, fundedMinor: 1, budgetBase: 1_000_000, availableBase: 1_000_000, refundedMinor: 0 });
    const [funding] = await meterPayments(client, meter.id);
    expect(funding).toMatchObject({ meterId: meter.id, meterPurpose: "funding", amount: 1 });
    expect(["captured", "settled"]).toContain(funding.status);

    const backend = serviceMeteringBackend({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
    const tool = meteredPaywall<Args>({ backend, meterId: meter.id, unitPriceMinor: PRICE, quantity: (args) => args.units, prepaid: true })(
      handler,
    );

    expect((await tool({ units: 2 }, {})).metering).toMatchObject({ status: "committed", amountBase: 2 * PRICE });
    const gated = await tool({ units: 1 }, {}); // 0.4 cent does not fit in the 0.2 left
    expect(gated.isError).toBe(true);
    expect(runs).toHaveLength(1);
    const gate = gateOf(gated);
    expect(gate).toMatchObject({
      kind: "payment_required",
      reasonCode: "insufficient_budget",
      meterId: meter.id,
      amountBase: PRICE,
      minimumAmountMinor: 1,
      details: {
        reason: "insufficient_budget",
        availableBase: 200_000,
        requiredBase: PRICE,
        topUp: { method: "POST", minimumAmountMinor: 1 },
      },
    });
    expect(gate.topUpUrl).toMatch(new RegExp(`/v1/meters/${meter.id}/top-up$`));
    expect(gate).not.toHaveProperty("retryPaymentUrl");

    const toppedUp = await client.meters.topUp(meter.id, { amountMinor: gate.minimumAmountMinor, paymentMethod: "pm_card_visa" });
    expect(toppedUp).toMatchObject({ fundedMinor: 2, budgetBase: 2_000_000, availableBase: 2_000_000 - 2 * PRICE });

    const retried = await tool({ units: 1 }, {});
    expect(retried.isError).toBeFalsy();
    expect(retried.metering).toMatchObject({ status: "committed", amountBase: PRICE });
    expect(runs).toHaveLength(2);
    expect(await client.meters.retrieve(meter.id)).toMatchObject({
      usedBase: 3 * PRICE,
      reservedBase: 0,
      availableBase: 2_000_000 - 3 * PRICE,
    });
    const fundings = (await meterPayments(client, meter.id)).filter((p) => p.meterPurpose === "funding");
    expect(fundings.map((p) => p.amount).sort()).toEqual([1, 1]);
  });

  it("a declined top-up card is a ServiceError 402 naming its PaymentIntent; the budget is unchanged and the gate stays", async () => {
    const { merchant, client, payer, runs, handler } = await setup();
    const meter = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 100,
      prepaid: true,
      budgetMinor: 1,
      paymentMethod: "pm_card_visa",
    });
    const backend = serviceMeteringBackend({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
    const tool = meteredPaywall<Args>({ backend, meterId: meter.id, unitPriceMinor: PRICE, quantity: (args) => args.units, prepaid: true })(
      handler,
    );
    expect(gateOf(await tool({ units: 3 }, {}))).toMatchObject({ reasonCode: "insufficient_budget", minimumAmountMinor: 1 });

    const err = await client.meters.topUp(meter.id, { amountMinor: 5, paymentMethod: "pm_card_chargeDeclined" }).catch((e: unknown) => e);
    expect(ServiceError.is(err)).toBe(true);
    const declined = err as ServiceError;
    expect(declined).toMatchObject({ status: 402, code: "PAYMENT_DECLINED" });
    expect(declined.details.meterId).toBe(meter.id);
    expect(declined.details.paymentIntentId).toEqual(expect.stringMatching(/^pi_/));
    const failed = await client.paymentIntents.retrieve(declined.details.paymentIntentId as string);
    expect(failed).toMatchObject({ status: "failed", amount: 5, meterId: meter.id, meterPurpose: "funding" });

    expect(await client.meters.retrieve(meter.id)).toMatchObject({ fundedMinor: 1, budgetBase: 1_000_000, usedBase: 0 });
    expect(gateOf(await tool({ units: 3 }, {}))).toMatchObject({ reasonCode: "insufficient_budget" });
    expect(runs).toHaveLength(0);
  });

  it("a meter whose funding at creation was declined is open with no budget: the agent is gated until a top-up succeeds", async () => {
    const { merchant, client, payer, runs, handler } = await setup();
    const err = await client.meters
      .create({
        customerId: payer.id,
        currency: "usd",
        thresholdMinor: 100,
        prepaid: true,
        budgetMinor: 3,
        paymentMethod: "pm_card_chargeDeclined",
      })
      .catch((e: unknown) => e);
    expect(ServiceError.is(err) && err.status === 402 && err.code === "PAYMENT_DECLINED").toBe(true);
    const { meterId, paymentIntentId } = (err as ServiceError).details as { meterId: string; paymentIntentId: string };
    expect(await client.paymentIntents.retrieve(paymentIntentId)).toMatchObject({
      status: "failed",
      meterId,
      meterPurpose: "funding",
      amount: 3,
    });
    expect(await client.meters.retrieve(meterId)).toMatchObject({ status: "open", fundedMinor: 0, budgetBase: 0 });

    const backend = serviceMeteringBackend({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
    const tool = meteredPaywall<Args>({ backend, meterId, unitPriceMinor: PRICE, quantity: () => 1, prepaid: true })(handler);
    expect(gateOf(await tool({}, {}))).toMatchObject({ reasonCode: "insufficient_budget", minimumAmountMinor: 1 });
    expect(runs).toHaveLength(0);
    await client.meters.topUp(meterId, { amountMinor: 1, paymentMethod: "pm_card_visa" });
    expect((await tool({}, {})).metering).toMatchObject({ status: "committed" });
    expect(runs).toHaveLength(1);
  });

  it("a retried top-up with the same Idempotency-Key charges once", async () => {
    const { client, payer } = await setup();
    const meter = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 100,
      prepaid: true,
      budgetMinor: 1,
      paymentMethod: "pm_card_visa",
    });
    const first = await client.meters.topUp(
      meter.id,
      { amountMinor: 4, paymentMethod: "pm_card_visa" },
      { idempotencyKey: `topup-${meter.id}` },
    );
    const again = await client.meters.topUp(
      meter.id,
      { amountMinor: 4, paymentMethod: "pm_card_visa" },
      { idempotencyKey: `topup-${meter.id}` },
    );
    expect(first).toMatchObject({ fundedMinor: 5, budgetBase: 5_000_000 });
    expect(again).toMatchObject({ fundedMinor: 5, budgetBase: 5_000_000 });
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ fundedMinor: 5 });
    const fundings = (await meterPayments(client, meter.id)).filter((p) => p.meterPurpose === "funding");
    expect(fundings.map((p) => p.amount).sort()).toEqual([1, 4]);
  });
});

describe("post-paid meter made past due: the meter_past_due gate", () => {
  it("after a declined aggregate charge the tool is gated before it runs, until retry-payment collects the outstanding amount", async () => {
    const { merchant, client, payer, runs, handler } = await setup();
    const meter = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 1,
      prepaid: false,
      paymentMethod: "pm_card_chargeDeclined",
    });
    // meterStatusTtlMs 0: the backend reads the meter before every post-paid call (the default trusts a read for 10 s).
    const backend = serviceMeteringBackend({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000, meterStatusTtlMs: 0 });
    const tool = meteredPaywall<Args>({
      backend,
      meterId: meter.id,
      unitPriceMinor: PRICE,
      quantity: (args) => args.units,
      prepaid: false,
      idempotencyKey: (args) => args.requestId!,
    })(handler);

    expect((await tool({ units: 3, requestId: "c1" }, {})).metering).toMatchObject({ status: "recorded", amountBase: 3 * PRICE });
    await tickUntil(async () => (await client.meters.retrieve(meter.id)).status === "past_due");
    expect(await client.meters.retrieve(meter.id)).toMatchObject({ status: "past_due", outstandingMinor: 1 });
    const settlements = await meterPayments(client, meter.id);
    expect(settlements.map((p) => [p.amount, p.status, p.meterPurpose])).toEqual([[1, "failed", "settlement"]]);

    const gated = await tool({ units: 2, requestId: "c2" }, {});
    expect(runs).toHaveLength(1); // the handler did not run
    expect(gated.isError).toBe(true);
    expect(gated).not.toHaveProperty("metering");
    const gate = gateOf(gated);
    expect(gate).toMatchObject({
      kind: "payment_required",
      reasonCode: "meter_past_due",
      meterId: meter.id,
      quantity: 2,
      amountBase: 2 * PRICE,
      details: { reason: "meter_past_due", meterId: meter.id, outstandingMinor: 1, retryPayment: { method: "POST" } },
    });
    expect(gate.retryPaymentUrl).toMatch(new RegExp(`/v1/meters/${meter.id}/retry-payment$`));
    expect(gate).not.toHaveProperty("topUpUrl");
    expect(gate.message).toMatch(/outstanding/);
    expect((await client.meters.retrieve(meter.id)).usedBase).toBe(3 * PRICE); // nothing recorded for the gated call

    // The payer settles with another card: once the tick collects it, the same call runs and is metered.
    await client.meters.retryPayment(meter.id, { paymentMethod: "pm_card_visa" });
    await tickUntil(async () => (await client.meters.retrieve(meter.id)).status === "open");
    const after = await tool({ units: 2, requestId: "c2" }, {});
    expect(after.metering).toMatchObject({ status: "recorded", amountBase: 2 * PRICE });
    expect(runs).toHaveLength(2);
  });

  it("with the default status TTL, a call that raced the decline is gated after it ran (its result withheld), the next before it runs", async () => {
    const { merchant, client, payer, runs, handler } = await setup();
    const meter = await client.meters.create({
      customerId: payer.id,
      currency: "usd",
      thresholdMinor: 1,
      prepaid: false,
      paymentMethod: "pm_card_chargeDeclined",
    });
    const backend = serviceMeteringBackend({ baseUrl: baseUrl(), apiKey: merchant.testKey, timeoutMs: 20_000 });
    const tool = meteredPaywall<Args>({
      backend,
      meterId: meter.id,
      unitPriceMinor: PRICE,
      quantity: () => 3,
      prepaid: false,
      idempotencyKey: (a) => a.requestId!,
    })(handler);

    expect((await tool({ requestId: "c1" }, {})).metering?.status).toBe("recorded"); // the meter was read: open
    await tickUntil(async () => (await client.meters.retrieve(meter.id)).status === "past_due");

    const raced = await tool({ requestId: "c2" }, {}); // the read is still trusted: it runs, then usage is refused
    expect(runs).toHaveLength(2);
    expect(gateOf(raced)).toMatchObject({ reasonCode: "meter_past_due", meterId: meter.id });
    expect((raced as { content: { text: string }[] }).content.map((c) => c.text)).not.toContain("ok"); // the handler's result is withheld

    const next = await tool({ requestId: "c3" }, {});
    expect(runs).toHaveLength(2); // gated before it ran
    expect(gateOf(next)).toMatchObject({ reasonCode: "meter_past_due" });
  });
});
