// Starts examples/mcp-server.ts (`npm run example:mcp`'s program) as its own process against a service, and
// the paid-call scenario both the example's test and the packed SDK's test run through it.
import { spawn } from "node:child_process";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { call } from "./http";
import type { TestMerchant } from "./merchants";
import { freePort } from "./server";

export interface ExampleServer {
  url: string;
  /** How often each tool's handler ran in that process. */
  runs: () => Promise<Record<string, number>>;
  /** How many calls of each tool that process received. */
  calls: () => Promise<Record<string, number>>;
  stop: () => Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `from`: run another copy of the example (its file and the folder it resolves its imports from). */
export async function startMcpExample(
  env: { SERVICE_URL: string; SERVICE_API_KEY: string; MERCHANT_ID: string } & Record<string, string>,
  from: { script: string; cwd: string } = { script: path.join(ROOT, "examples", "mcp-server.ts"), cwd: ROOT },
): Promise<ExampleServer> {
  const port = await freePort();
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), [from.script], {
    cwd: from.cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`example exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`example did not start:\n${output}`);
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stats = async () => (await (await fetch(`${url}/stats`)).json()) as { runs: Record<string, number>; calls: Record<string, number> };
  return {
    url,
    runs: async () => (await stats()).runs,
    calls: async () => (await stats()).calls,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}

/** Pays a gate's terms at its payEndpoint with the payer's own key; returns the paymentIntentId. */
export async function payGate(gate: Record<string, any>, payer: TestMerchant, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(gate.payEndpoint, {
    method: "POST",
    headers: { Authorization: `Bearer ${payer.testKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      merchantId: gate.merchant,
      amount: gate.amount,
      currency: gate.currency,
      sku: gate.sku,
      paymentMethod: "pm_card_visa",
      ...overrides,
    }),
  });
  const body = (await res.json()) as { paymentIntentId: string; status: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  expect(body.status).toBe("captured");
  return body.paymentIntentId;
}

/**
 * premium_quote end to end (the example started with PRICE 25, CURRENCY usd): call -> gate; pay at
 * payEndpoint with the payer's key; retry -> paid; the same proof again, through each example process ->
 * already_redeemed; the tool ran once and the seller was paid once.
 */
export async function expectPaidCallEndToEnd(ctx: {
  examples: ExampleServer[];
  connect: (example: ExampleServer) => Promise<Client>;
  seller: TestMerchant;
  payer: TestMerchant;
  serviceUrl: string;
}): Promise<void> {
  const { examples, seller, serviceUrl } = ctx;
  const totalRuns = async () =>
    (await Promise.all(examples.map((e) => e.runs()))).reduce((sum, runs) => sum + (runs.premium_quote ?? 0), 0);
  const client = await ctx.connect(examples[0]);
  const before = await totalRuns();
  const gated = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme" } });
  expect(gated.isError).toBe(true);
  const gate = gated.structuredContent as Record<string, any>;
  expect(gate).toEqual({
    kind: "payment_required",
    merchant: seller.merchantId,
    amount: 25,
    currency: "USD",
    sku: "premium_quote",
    payEndpoint: `${serviceUrl}/v1/paywall/pay`,
  });
  expect(JSON.parse((gated.content as { text: string }[])[0].text)).toEqual(gate);
  expect(await totalRuns()).toBe(before);

  const paymentIntentId = await payGate(gate, ctx.payer);
  const paid = await client.callTool({ name: "premium_quote", arguments: { symbol: "acme", _servicePayment: { paymentIntentId } } });
  expect(paid.isError).toBeFalsy();
  expect(paid.payment).toEqual({ status: "paid", paymentIntentId });
  expect(JSON.parse((paid.content as { text: string }[])[0].text)).toMatchObject({ symbol: "ACME" });
  expect(await totalRuns()).toBe(before + 1);

  // The same proof again, through every example process: already redeemed, the tool does not run.
  for (const example of examples) {
    const again = await (
      await ctx.connect(example)
    ).callTool({ name: "premium_quote", arguments: { symbol: "acme", _servicePayment: { paymentIntentId } } });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ kind: "already_redeemed", result: "already_redeemed", paymentIntentId });
    expect(again.payment).toBeUndefined();
  }
  expect(await totalRuns()).toBe(before + 1);
  // The seller was paid once, through the service's ledger.
  const pi = await call("GET", `/v1/payment_intents/${paymentIntentId}`, { key: seller.testKey, base: serviceUrl });
  expect(pi.body).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), amountCaptured: 25, sku: "premium_quote" });
}
