// meteredPaywall(options)(handler): option validation, quantity fallback, post-paid and prepaid flows.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { meteredPaywall, type MeteredPaywallOptions } from "agent-payments-sdk";
import { FakeMeteringBackend, RETRY_PAYMENT_URL } from "./support";

type Args = { pages?: number | null; requestId?: string; fail?: "throw" | "isError" };
const PRICE = 400_000; // base units: 0.4 of a minor unit (1,000,000 base units per minor unit)

function tool(calls: Args[]) {
  return async (args: Args, _extra: unknown) => {
    calls.push(args);
    if (args.fail === "throw") throw new Error("tool crashed");
    if (args.fail === "isError") return { content: [{ type: "text" as const, text: "bad input" }], isError: true };
    return { content: [{ type: "text" as const, text: "done" }] };
  };
}

const sc = (result: object) => ((result as { structuredContent?: unknown }).structuredContent ?? {}) as Record<string, unknown>;

describe("meteredPaywall: options", () => {
  const backend = new FakeMeteringBackend();
  const base = { backend, meterId: "mtr_1", unitPriceMinor: PRICE, quantity: () => 1 };

  it("prepaid is required, with no default", () => {
    expect(() => meteredPaywall({ ...base, idempotencyKey: () => "k" } as unknown as MeteredPaywallOptions)).toThrow(/prepaid/);
    expect(() => meteredPaywall({ ...base, prepaid: "yes" } as unknown as MeteredPaywallOptions)).toThrow(/prepaid/);
  });

  it("idempotencyKey is required when prepaid is false, optional when true", () => {
    expect(() => meteredPaywall({ ...base, prepaid: false })).toThrow(/idempotencyKey/);
    expect(() => meteredPaywall({ ...base, prepaid: false, idempotencyKey: () => "k" })).not.toThrow();
    expect(() => meteredPaywall({ ...base, prepaid: true })).not.toThrow();
  });

  it("unitPriceMinor must be a positive integer (base units); backend, meterId and quantity are required", () => {
    for (const unitPriceMinor of [0, -1, 0.4, Number.NaN, "400000"]) {
      expect(() => meteredPaywall({ ...base, prepaid: true, unitPriceMinor } as unknown as MeteredPaywallOptions)).toThrow(
        /unitPriceMinor/,
      );
    }
    expect(() => meteredPaywall({ ...base, prepaid: true, backend: undefined } as unknown as MeteredPaywallOptions)).toThrow(/backend/);
    expect(() => meteredPaywall({ ...base, prepaid: true, meterId: "" })).toThrow(/meterId/);
    expect(() => meteredPaywall({ ...base, prepaid: true, quantity: undefined } as unknown as MeteredPaywallOptions)).toThrow(/quantity/);
  });
});

describe("meteredPaywall: post-paid", () => {
  function setup() {
    const backend = new FakeMeteringBackend();
    const calls: Args[] = [];
    const wrapped = meteredPaywall<Args>({
      backend,
      meterId: "mtr_post",
      unitPriceMinor: PRICE,
      quantity: (args) => args.pages,
      prepaid: false,
      idempotencyKey: (args) => args.requestId!,
    })(tool(calls));
    return { backend, calls, wrapped };
  }

  it("meters a successful call after it ran, with the idempotency key and the metering block", async () => {
    const { backend, calls, wrapped } = setup();
    const result = await wrapped({ pages: 3, requestId: "r1" }, {});
    expect(calls).toHaveLength(1);
    expect(result.metering).toEqual({ meterId: "mtr_post", quantity: 3, unitPriceMinor: PRICE, amountBase: 1_200_000, status: "recorded" });
    expect([...backend.usage.values()]).toEqual([{ meterId: "mtr_post", quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "r1" }]);
  });

  it("quantity falls back to 1 when it returns undefined, null or NaN", async () => {
    const { backend, wrapped } = setup();
    await wrapped({ requestId: "a" }, {});
    await wrapped({ pages: null, requestId: "b" }, {});
    await wrapped({ pages: Number.NaN, requestId: "c" }, {});
    expect([...backend.usage.values()].map((u) => u.quantity)).toEqual([1, 1, 1]);
    expect(backend.accruedBase).toBe(3 * PRICE);
  });

  it("only successful calls are metered (a throw or an isError result is not)", async () => {
    const { backend, calls, wrapped } = setup();
    await expect(wrapped({ requestId: "t", fail: "throw" }, {})).rejects.toThrow("tool crashed");
    const bad = await wrapped({ requestId: "e", fail: "isError" }, {});
    expect(bad.isError).toBe(true);
    expect(bad).not.toHaveProperty("metering");
    expect(calls).toHaveLength(2);
    expect(backend.log).toEqual([]);
  });

  it("a retried call with the same key is recorded under the same key (the meter counts it once)", async () => {
    const { backend, wrapped } = setup();
    await wrapped({ pages: 2, requestId: "same" }, {});
    await wrapped({ pages: 2, requestId: "same" }, {});
    expect(backend.log).toEqual(["usage:same", "usage:same"]);
    expect(backend.accruedBase).toBe(2 * PRICE);
  });

  it("an idempotencyKey function returning nothing fails before the handler runs", async () => {
    const { calls, wrapped } = setup();
    await expect(wrapped({ pages: 1 }, {})).rejects.toThrow(/idempotencyKey/);
    expect(calls).toHaveLength(0);
  });
});

describe("meteredPaywall: prepaid", () => {
  function setup(budgetBase: number) {
    const backend = new FakeMeteringBackend(budgetBase);
    const calls: Args[] = [];
    const wrapped = meteredPaywall<Args>({
      backend,
      meterId: (args) => `mtr_${args.requestId ?? "agent"}`,
      unitPriceMinor: PRICE,
      quantity: (args) => args.pages,
      prepaid: true,
      topUpUrl: "https://merchant.test/top-up",
    })(tool(calls));
    return { backend, calls, wrapped };
  }

  it("reserves before the call and commits after success", async () => {
    const { backend, wrapped } = setup(10 * PRICE);
    const result = await wrapped({ pages: 2 }, {});
    expect(backend.log).toEqual(["reserve:rsv_1", "commit:rsv_1"]);
    expect(backend.committedBase).toBe(2 * PRICE);
    expect(backend.reservedBase).toBe(0);
    expect(result.metering).toMatchObject({ meterId: "mtr_agent", quantity: 2, amountBase: 2 * PRICE, status: "committed" });
  });

  it("releases the reservation when the handler throws (the error propagates) or returns isError", async () => {
    const { backend, wrapped } = setup(10 * PRICE);
    await expect(wrapped({ fail: "throw" }, {})).rejects.toThrow("tool crashed");
    const bad = await wrapped({ fail: "isError" }, {});
    expect(bad.isError).toBe(true);
    expect(backend.log).toEqual(["reserve:rsv_1", "release:rsv_1", "reserve:rsv_2", "release:rsv_2"]);
    expect(backend.committedBase).toBe(0);
    expect(backend.reservedBase).toBe(0);
  });

  it("gates with a top-up prompt when the budget cannot cover the call; the handler does not run", async () => {
    const { backend, calls, wrapped } = setup(3 * PRICE);
    await wrapped({ pages: 2 }, {});
    const gated = await wrapped({ pages: 2 }, {});
    expect(calls).toHaveLength(1);
    expect(gated.isError).toBe(true);
    expect(sc(gated)).toMatchObject({
      kind: "payment_required",
      reasonCode: "insufficient_budget",
      meterId: "mtr_agent",
      quantity: 2,
      amountBase: 2 * PRICE,
      topUpUrl: "https://merchant.test/top-up",
    });
    expect(String(sc(gated).message)).toMatch(/top up/);
    expect(JSON.parse((gated.content[0] as { text: string }).text)).toEqual(sc(gated));
    expect(backend.log).toEqual(["reserve:rsv_1", "commit:rsv_1", "reserve:refused"]);
    // A call that still fits the remaining budget runs.
    expect((await wrapped({ pages: 1 }, {})).metering?.status).toBe("committed");
  });
});

describe("meteredPaywall: prepaid runs only on a hold this call created (issue 14)", () => {
  it("refuses an idempotencyKey option when prepaid: the caller could repeat it", () => {
    const backend = new FakeMeteringBackend(10 * PRICE);
    expect(() =>
      meteredPaywall<Args>({
        backend,
        meterId: "mtr_p",
        unitPriceMinor: PRICE,
        quantity: () => 1,
        prepaid: true,
        idempotencyKey: (a) => a.requestId!,
      }),
    ).toThrow(/idempotencyKey.*prepaid/);
  });

  it("reserves every call under a new key of its own, the same arguments included", async () => {
    const backend = new FakeMeteringBackend(10 * PRICE);
    const wrapped = meteredPaywall<Args>({ backend, meterId: "mtr_p", unitPriceMinor: PRICE, quantity: () => 1, prepaid: true })(tool([]));
    await wrapped({ requestId: "same" }, {});
    await wrapped({ requestId: "same" }, {});
    expect(backend.reserveKeys).toHaveLength(2);
    expect(backend.reserveKeys.every((k) => typeof k === "string" && /^mp_[0-9a-f-]{36}$/.test(k))).toBe(true);
    expect(new Set(backend.reserveKeys).size).toBe(2);
  });

  it("a reservation the backend does not say this call created: the handler does not run, nothing is finished", async () => {
    for (const forced of [
      { ok: true, reservationId: "rsv_other" }, // a backend that does not say (an SDK before `created`)
      { ok: true, reservationId: "rsv_other", created: false },
      { ok: false, reason: "already_used", reservationId: "rsv_other", status: "committed" },
    ]) {
      const backend = new FakeMeteringBackend(10 * PRICE);
      backend.forcedOutcome = forced;
      const calls: Args[] = [];
      const wrapped = meteredPaywall<Args>({ backend, meterId: "mtr_p", unitPriceMinor: PRICE, quantity: () => 1, prepaid: true })(
        tool(calls),
      );
      const result = await wrapped({}, {});
      expect(calls).toEqual([]);
      expect(result.isError).toBe(true);
      expect(result).not.toHaveProperty("metering");
      expect(sc(result)).toMatchObject({ kind: "already_used", result: "already_used", meterId: "mtr_p", reservationId: "rsv_other" });
      expect(backend.log).toEqual(["reserve:forced"]); // no commit, no release of a hold that is not ours
    }
  });

  it("a quantity of 0 (or less than one unit) reserves one unit: no free prepaid run", async () => {
    const backend = new FakeMeteringBackend(10 * PRICE);
    const calls: Args[] = [];
    const wrapped = meteredPaywall<Args>({ backend, meterId: "mtr_p", unitPriceMinor: PRICE, quantity: (a) => a.pages, prepaid: true })(
      tool(calls),
    );
    const result = await wrapped({ pages: 0 }, {});
    expect(result.metering).toMatchObject({ quantity: 1, amountBase: PRICE, status: "committed" });
    expect(backend.committedBase).toBe(PRICE);
    expect(calls).toHaveLength(1);
  });
});

describe("meteredPaywall: the insufficient_budget gate carries the minimum top-up", () => {
  it("includes minimumAmountMinor when the backend's refusal names it, and leaves it out otherwise", async () => {
    const backend = new FakeMeteringBackend(PRICE);
    const wrapped = meteredPaywall<Args>({ backend, meterId: "mtr_p", unitPriceMinor: PRICE, quantity: (a) => a.pages, prepaid: true })(
      tool([]),
    );
    expect(sc(await wrapped({ pages: 2 }, {}))).not.toHaveProperty("minimumAmountMinor");
    backend.minimumAmountMinor = 1;
    const gate = sc(await wrapped({ pages: 2 }, {}));
    expect(gate).toMatchObject({ reasonCode: "insufficient_budget", minimumAmountMinor: 1, details: { budgetBase: PRICE } });
    expect(gate).not.toHaveProperty("retryPaymentUrl");
  });
});

describe("meteredPaywall: a past-due meter", () => {
  function setup(prepaid: boolean, retryPaymentUrl?: string) {
    const backend = new FakeMeteringBackend(10 * PRICE);
    const calls: Args[] = [];
    const wrapped = meteredPaywall<Args>({
      backend,
      meterId: "mtr_due",
      unitPriceMinor: PRICE,
      quantity: (args) => args.pages,
      prepaid,
      ...(prepaid ? {} : { idempotencyKey: (args: Args) => args.requestId ?? "key" }),
      topUpUrl: "https://merchant.test/top-up",
      ...(retryPaymentUrl ? { retryPaymentUrl } : {}),
    })(tool(calls));
    return { backend, calls, wrapped };
  }

  const expectPastDueGate = (result: object, retryPaymentUrl = RETRY_PAYMENT_URL) => {
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(result).not.toHaveProperty("metering");
    const gate = sc(result);
    expect(gate).toMatchObject({
      kind: "payment_required",
      reasonCode: "meter_past_due",
      meterId: "mtr_due",
      quantity: 2,
      unitPriceMinor: PRICE,
      amountBase: 2 * PRICE,
      retryPaymentUrl,
      details: { reason: "meter_past_due", meterId: "mtr_due" },
    });
    // Not the top-up prompt: no top-up URL, a message about settling what is outstanding.
    expect(gate).not.toHaveProperty("topUpUrl");
    expect(String(gate.message)).toMatch(/past due/);
    expect(String(gate.message)).toMatch(/outstanding/);
    expect(String(gate.message)).not.toMatch(/top up/);
    expect(String(gate.message)).toContain(retryPaymentUrl);
    expect(JSON.parse((result as { content: { text: string }[] }).content[0].text)).toEqual(gate);
  };

  it("prepaid: the refused reservation is the meter_past_due gate, not the top-up gate; the handler does not run", async () => {
    const { backend, calls, wrapped } = setup(true);
    backend.pastDueMeters.add("mtr_due");
    expectPastDueGate(await wrapped({ pages: 2 }, {}));
    expect(calls).toEqual([]);
    expect(backend.log).toEqual(["reserve:past_due"]);
    expect(backend.reservedBase).toBe(0);
  });

  it("post-paid: the meter is checked before the handler runs; past due -> the gate, nothing run or recorded", async () => {
    const { backend, calls, wrapped } = setup(false);
    backend.pastDueMeters.add("mtr_due");
    expectPastDueGate(await wrapped({ pages: 2, requestId: "r1" }, {}));
    expect(calls).toEqual([]);
    expect(backend.pastDueChecks).toBe(1);
    expect(backend.log).toEqual([]);

    backend.pastDueMeters.delete("mtr_due"); // the payer settled: the same call runs and is metered
    const result = await wrapped({ pages: 2, requestId: "r1" }, {});
    expect(result.metering).toMatchObject({ status: "recorded", amountBase: 2 * PRICE });
    expect(calls).toHaveLength(1);
    expect(backend.log).toEqual(["usage:r1"]);
  });

  it("post-paid: a meter that falls past due between the check and the record withholds the result behind the gate", async () => {
    const { backend, calls, wrapped } = setup(false);
    backend.pastDue = async () => null; // the check saw it in good standing
    backend.pastDueMeters.add("mtr_due"); // ... but usage is refused
    expectPastDueGate(await wrapped({ pages: 2, requestId: "r2" }, {}));
    expect(calls).toHaveLength(1);
    expect(backend.log).toEqual(["usage:refused"]);
  });

  it("post-paid without backend.pastDue (a custom backend): usage refused after the run still gates", async () => {
    const { backend, calls, wrapped } = setup(false);
    (backend as { pastDue?: unknown }).pastDue = undefined;
    backend.pastDueMeters.add("mtr_due");
    expectPastDueGate(await wrapped({ pages: 2 }, {}));
    expect(calls).toHaveLength(1);
  });

  it("the wrapper's own retryPaymentUrl replaces the service's", async () => {
    const { backend, wrapped } = setup(true, "https://merchant.test/settle");
    backend.pastDueMeters.add("mtr_due");
    expectPastDueGate(await wrapped({ pages: 2 }, {}), "https://merchant.test/settle");
  });

  it("a handler that does not bill (quantity 0) is not gated", async () => {
    const { backend, calls, wrapped } = setup(false);
    backend.pastDueMeters.add("mtr_due");
    expect((await wrapped({ pages: 0, requestId: "z" }, {})).isError).toBeFalsy();
    expect(calls).toHaveLength(1);
  });
});

describe("meteredPaywall inside an official McpServer", () => {
  it("meters a registered tool per call, driven by the official MCP Client", async () => {
    const backend = new FakeMeteringBackend();
    const server = new McpServer({ name: "metered-tools", version: "1.0.0" });
    server.registerTool(
      "summarize",
      { inputSchema: { pages: z.number().optional(), requestId: z.string() } },
      meteredPaywall<{ pages?: number; requestId: string }>({
        backend,
        meterId: "mtr_mcp",
        unitPriceMinor: PRICE,
        quantity: (args) => args.pages,
        prepaid: false,
        idempotencyKey: (args) => args.requestId,
      })(async ({ pages }) => ({ content: [{ type: "text", text: `summarized ${pages ?? 1} pages` }] })),
    );
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "agent", version: "1.0.0" });
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    try {
      const first = await client.callTool({ name: "summarize", arguments: { pages: 2, requestId: "r1" } });
      expect(first.metering).toMatchObject({ quantity: 2, amountBase: 2 * PRICE, status: "recorded" });
      await client.callTool({ name: "summarize", arguments: { requestId: "r2" } });
      expect(backend.accruedBase).toBe(3 * PRICE);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
