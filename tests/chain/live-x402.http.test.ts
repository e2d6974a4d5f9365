// Live x402 on a real chain (docs/x402.md "Going live"; issue 31): a real EVM node (anvil, scripts/lib/test-chain.ts)
// with an EIP-3009 USDC-like token, the service pointed at it with X402_RPC_URLS / X402_ASSETS, and the stock x402
// clients paying. Everything is read back from the chain itself (balances, receipts, block numbers) and from the
// service's books (the PaymentIntent, the ledger, the events).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TaskState } from "@a2a-js/sdk";
import { paywallHttp, serviceBackend, serviceConsumedStore } from "agent-payments-sdk";
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme as registerClientScheme } from "@x402/evm/exact/client";
import { registerExactEvmScheme as registerFacilitatorScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { paymentMiddleware } from "@x402/express";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import express from "express";
import { getAddress, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { facilitatorSigner } from "../../lib/x402/chain-signer";
import { lowBalances } from "../../lib/x402/facilitator-balance";
import { startTestChain, type TestChain } from "../../scripts/lib/test-chain";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { a2aClient, send, text, userMessage, X402_EXT } from "../helpers/a2a";
import { serveFetch } from "../helpers/fetch-server";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tick } from "../helpers/payments";
import { startTestServer, waitForExit } from "../helpers/server";

const PRICE_CENTS = 25;
const PRICE = 250_000n; // atomic units of 0.25 USDC

let chain: TestChain;
let servers: ServerProcess[] = [];
let base = "";
let m: TestMerchant;
let payout: Hex;

function liveSettings(c: TestChain): Record<string, string> {
  return {
    X402_RPC_URLS: JSON.stringify({ [c.network]: c.rpcUrl }),
    X402_ASSETS: JSON.stringify({ [c.network]: { address: c.token.address, name: c.token.name, version: c.token.version, decimals: 6 } }),
    X402_FACILITATOR_PRIVATE_KEY: c.facilitatorKey,
    X402_CONFIRMATION_TIMEOUT_MS: "1500",
  };
}

async function merchantPaidOn(c: TestChain, url: string, name: string) {
  const merchant = await createTestMerchant(name);
  const address = privateKeyToAccount(generatePrivateKey()).address;
  const set = await call("POST", "/v1/x402/payout_addresses", { base: url, key: merchant.liveKey, body: { network: c.network, address } });
  expect(set.status).toBe(201);
  return { merchant, address };
}

/** The stock client of a payer holding `atomic` of the token (a custom token: allowed by name, as any payer of one does). */
async function stockPayer(c: TestChain, atomic: bigint) {
  const payer = await c.newPayer(atomic);
  const account = privateKeyToAccount(payer.key);
  const client = new x402Client().setSpendControls({
    allowedAssets: [{ network: c.network as `${string}:${string}`, asset: c.token.address }],
  });
  registerClientScheme(client, { signer: toClientEvmSigner(account, c.client) });
  return { ...payer, client, pay: wrapFetchWithPayment(fetch, client) };
}

async function liveResource(url: string, key: string, body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/paid_resources", {
    base: url,
    key,
    body: { name: "Live data", amount: PRICE_CENTS, currency: "usd", content: { live: true }, ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** The signed payment the stock client makes for a resource's first requirement (to send by hand). */
async function signedFor(payer: Awaited<ReturnType<typeof stockPayer>>, resourceUrl: string) {
  const unpaid = await fetch(resourceUrl);
  expect(unpaid.status).toBe(402);
  const required = JSON.parse(Buffer.from(unpaid.headers.get("payment-required")!, "base64").toString("utf8"));
  const payload = await payer.client.createPaymentPayload(required);
  return { payload, header: Buffer.from(JSON.stringify(payload)).toString("base64"), accepted: payload.accepted as PaymentRequirements };
}

async function livePaymentIntents(merchantId: string) {
  return getDb().paymentIntent.findMany({ where: { merchantId, livemode: true }, orderBy: { createdAt: "asc" } });
}

beforeAll(async () => {
  chain = await startTestChain();
  servers = [await startTestServer(liveSettings(chain))];
  base = servers[0].url;
  ({ merchant: m, address: payout } = await merchantPaidOn(chain, base, "live x402 seller"));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await chain?.stop();
});

describe("live x402 settled on chain", () => {
  it("the stock @x402/fetch client pays a live hosted resource: USDC moves on chain, and the ledger records it once", async () => {
    const resource = await liveResource(base, m.liveKey);
    const supported = await call("GET", "/x402/supported", { base, key: m.liveKey });
    expect(supported.body.kinds).toEqual([
      expect.objectContaining({
        x402Version: 2,
        scheme: "exact",
        network: chain.network,
        extra: expect.objectContaining({ payTo: payout }),
      }),
      expect.objectContaining({
        x402Version: 2,
        scheme: "upto",
        network: chain.network,
        extra: expect.objectContaining({ payTo: payout }),
      }),
    ]);
    const payer = await stockPayer(chain, 1_000_000n);
    const before = await chain.balanceOf(payout);

    const res = await payer.pay(`${base}/x402/r/${resource.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ live: true });
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: chain.network, payer: payer.address });
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);

    // The chain: a mined transaction that called the token, the payer down and the payout address up by the price.
    const mined = await chain.client.getTransactionReceipt({ hash: receipt.transaction as Hex });
    expect(mined.status).toBe("success");
    expect(mined.to?.toLowerCase()).toBe(chain.token.address.toLowerCase());
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect(await chain.balanceOf(payout)).toBe(before + PRICE);

    // The books: one live x402 PaymentIntent, captured and paid out at once (non-custodial), with its settlement.
    const [pi] = (await livePaymentIntents(m.merchantId)).filter((p) => p.paidResourceId === resource.id);
    const shown = await call("GET", `/v1/payment_intents/${pi.id}`, { base, key: m.liveKey });
    expect(shown.body).toMatchObject({
      status: "settled",
      amount: PRICE_CENTS,
      amountCaptured: PRICE_CENTS,
      source: "x402",
      payer: payer.address,
      livemode: true,
      settlement: {
        network: chain.network,
        transaction: receipt.transaction,
        blockNumber: Number(mined.blockNumber),
        payer: payer.address,
        payTo: payout,
        asset: getAddress(chain.token.address),
      },
    });
    const order = await call("GET", `/v1/orders/${pi.orderId}`, { base, key: m.liveKey });
    expect(order.body.status).toBe("paid");
    const events = await getDb().event.findMany({ where: { merchantId: m.merchantId, livemode: true }, orderBy: { createdAt: "asc" } });
    const types = events.filter((e) => e.objectId === pi.id || e.objectId === pi.orderId).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(["payment_intent.processing", "order.paid", "payment_intent.captured", "payment_intent.settled"]),
    );
    const entries = await getDb().ledgerEntry.findMany({ where: { paymentIntentId: pi.id } });
    expect(entries.map((e) => [e.kind, e.account, e.amount]).sort()).toEqual(
      [
        ["capture", "payer", -PRICE_CENTS],
        ["capture", "merchant_pending", PRICE_CENTS],
        ["payout", "merchant_pending", -PRICE_CENTS],
        ["payout", "merchant_paid_out", PRICE_CENTS],
      ].sort(),
    );
    // Never pending or payable here: the money is in the merchant's own wallet.
    const balance = await call("GET", "/v1/balance", { base, key: m.liveKey });
    for (const amount of [...balance.body.pending, ...balance.body.payable]) expect(amount.amount).toBe(0);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);

    // A refund cannot pull money back from a wallet the service does not hold.
    const refund = await call("POST", "/v1/refunds", { base, key: m.liveKey, body: { paymentIntentId: pi.id } });
    expect(refund.status).toBe(409);
    expect(refund.body.error.details.reason).toBe("non_custodial_payment");
  });

  it("the same payment sent again gets the content again and moves no money", async () => {
    const resource = await liveResource(base, m.liveKey);
    const payer = await stockPayer(chain, 1_000_000n);
    const { header } = await signedFor(payer, `${base}/x402/r/${resource.id}`);
    const first = await fetch(`${base}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(first.status).toBe(200);
    const block = await chain.blockNumber();
    const again = await fetch(`${base}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ live: true });
    expect(decodePaymentResponseHeader(again.headers.get("payment-response")!).transaction).toBe(
      decodePaymentResponseHeader(first.headers.get("payment-response")!).transaction,
    );
    expect(await chain.blockNumber()).toBe(block);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect((await livePaymentIntents(m.merchantId)).filter((p) => p.paidResourceId === resource.id)).toHaveLength(1);
  });

  it("the real @x402/express middleware, pointed at the live facilitator, is paid on chain", async () => {
    const facilitator = new HTTPFacilitatorClient({
      url: `${base}/x402`,
      createAuthHeaders: async () => {
        const headers = { Authorization: `Bearer ${m.liveKey}` };
        return { verify: headers, settle: headers, supported: headers };
      },
    });
    const network = chain.network as `${string}:${string}`;
    const server = new x402ResourceServer(facilitator).register(network, new ExactEvmServerScheme());
    const app = express();
    const price = { amount: PRICE.toString(), asset: chain.token.address, extra: { name: chain.token.name, version: chain.token.version } };
    app.use(
      paymentMiddleware(
        { "GET /premium": { accepts: { scheme: "exact", price, network, payTo: payout }, description: "Premium" } },
        server,
      ),
    );
    app.get("/premium", (_req, res) => {
      res.json({ premium: "data" });
    });
    const listening = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/premium`;
      const payer = await stockPayer(chain, 1_000_000n);
      const before = await chain.balanceOf(payout);
      const res = await payer.pay(url);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ premium: "data" });
      const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await chain.balanceOf(payout)).toBe(before + PRICE);
      const pis = await getDb().paymentIntent.findMany({ where: { merchantId: m.merchantId, livemode: true, payer: payer.address } });
      expect(pis).toHaveLength(1);
      expect(pis[0]).toMatchObject({
        status: "settled",
        source: "x402",
        settlement: expect.objectContaining({ transaction: receipt.transaction }),
      });
    } finally {
      listening.close();
    }
  });

  it("a payer without the funds is refused with the official reason: nothing broadcast, nothing captured", async () => {
    const resource = await liveResource(base, m.liveKey);
    const payer = await stockPayer(chain, 0n);
    const block = await chain.blockNumber();
    const res = await payer.pay(`${base}/x402/r/${resource.id}`);
    expect(res.status).toBe(402);
    const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
    expect(required.error).toBe("invalid_exact_evm_insufficient_balance");
    expect(await chain.blockNumber()).toBe(block);
    expect((await livePaymentIntents(m.merchantId)).filter((p) => p.paidResourceId === resource.id)).toHaveLength(0);
  });

  it("an authorization the payer already used on chain is refused, and nothing is captured", async () => {
    const resource = await liveResource(base, m.liveKey);
    const payer = await stockPayer(chain, 1_000_000n);
    const { payload, header, accepted } = await signedFor(payer, `${base}/x402/r/${resource.id}`);
    // The payer spends the authorization elsewhere first (any facilitator may submit it).
    const elsewhere = new x402Facilitator();
    const outsider = generatePrivateKey();
    await chain.client.request({
      method: "anvil_setBalance" as any,
      params: [privateKeyToAccount(outsider).address, "0xde0b6b3a7640000"] as any,
    });
    registerFacilitatorScheme(elsewhere, {
      signer: facilitatorSigner({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }, outsider),
      networks: chain.network as `${string}:${string}`,
    });
    expect(await elsewhere.settle(payload as PaymentPayload, accepted)).toMatchObject({ success: true });

    const block = await chain.blockNumber();
    const res = await fetch(`${base}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(res.status).toBe(402);
    const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
    expect(required.error).toBe("invalid_exact_evm_nonce_already_used");
    expect(await chain.blockNumber()).toBe(block);
    expect((await livePaymentIntents(m.merchantId)).filter((p) => p.paidResourceId === resource.id)).toHaveLength(0);
  });

  it("a forward that fails after the chain moved the money: 502 forward_failed with the transaction, no refund; the same payment forwards again", async () => {
    let failing = true;
    let forwards = 0;
    const shop = createServer((req, res) => {
      forwards++;
      res.writeHead(failing ? 500 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify(failing ? { down: true } : { fresh: "data" }));
    });
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
    try {
      const target = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/api`;
      const resource = await liveResource(base, m.liveKey, { content: undefined, url: target });
      const payer = await stockPayer(chain, 1_000_000n);
      const { header } = await signedFor(payer, `${base}/x402/r/${resource.id}`);
      const first = await fetch(`${base}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
      expect(first.status).toBe(502);
      const failed = (await first.json()).error;
      expect(failed).toMatchObject({
        code: "UPSTREAM_ERROR",
        details: { reason: "forward_failed", paymentIntentId: expect.stringMatching(/^pi_/), transaction: expect.stringMatching(/^0x/) },
      });
      // The capture stands (the money is in the merchant's wallet): no refund was made or attempted.
      const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: failed.details.paymentIntentId } });
      expect(pi).toMatchObject({ status: "settled", amountRefunded: 0 });
      expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);

      failing = false;
      const block = await chain.blockNumber();
      const again = await fetch(`${base}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ fresh: "data" });
      expect(forwards).toBe(2);
      expect(await chain.blockNumber()).toBe(block);
      expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
      expect((await livePaymentIntents(m.merchantId)).filter((p) => p.paidResourceId === resource.id)).toHaveLength(1);
    } finally {
      shop.close();
    }
  });

  it("a transaction not confirmed in time: 503 settlement_pending (never 402), then the same payment gets the content", async () => {
    const resource = await liveResource(base, m.liveKey);
    const payer = await stockPayer(chain, 1_000_000n);
    const { header } = await signedFor(payer, `${base}/x402/r/${resource.id}`);
    await chain.setAutomine(false);
    let pending: Response;
    try {
      pending = await fetch(`${base}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
      expect(pending.status).toBe(503);
      expect(Number(pending.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = await pending.json();
      expect(body.error.details).toMatchObject({ reason: "settlement_pending", transaction: expect.stringMatching(/^0x/) });
      const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: body.error.details.paymentIntentId } });
      expect(pi.status).toBe("processing");
      const order = await getDb().order.findUniqueOrThrow({ where: { id: pi.orderId! } });
      expect(order.status).toBe("pending");
    } finally {
      await chain.setAutomine(true);
      await chain.mine(1);
    }
    const again = await fetch(`${base}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ live: true });
    const pis = (await livePaymentIntents(m.merchantId)).filter((p) => p.paidResourceId === resource.id);
    expect(pis.map((p) => p.status)).toEqual(["settled"]);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
  });
});

describe("every live path settles on chain", () => {
  it("a live-mode a2a-x402 purchase through the real @a2a-js/sdk client settles on chain", async () => {
    const buyer = await createTestMerchant("live a2a buyer");
    const product = await call("POST", "/v1/products", {
      base,
      key: m.liveKey,
      body: { name: "Live hat", unitAmount: PRICE_CENTS, currency: "usd" },
    });
    expect(product.status).toBe(201);
    const client = await a2aClient(m.merchantId, buyer.liveKey, base);
    const t1 = await send(client, userMessage([text(`buy ${product.body.id} 1`)]), [X402_EXT]);
    expect(t1.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const required = t1.status!.message!.metadata!["x402.payment.required"];
    expect(required.accepts).toEqual([expect.objectContaining({ network: chain.network, payTo: payout, amount: PRICE.toString() })]);
    const payer = await stockPayer(chain, 1_000_000n);
    const payload = await payer.client.createPaymentPayload(required);
    const before = await chain.balanceOf(payout);
    const t2 = await send(
      client,
      userMessage([text("paying")], {
        taskId: t1.id,
        contextId: t1.contextId,
        metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
      }),
      [X402_EXT],
    );
    expect(t2.status?.state, JSON.stringify(t2.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    const [receipt] = t2.status!.message!.metadata!["x402.payment.receipts"];
    expect(receipt).toMatchObject({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: chain.network });
    expect((await chain.client.getTransactionReceipt({ hash: receipt.transaction })).status).toBe("success");
    expect(await chain.balanceOf(payout)).toBe(before + PRICE);
    const pis = await getDb().paymentIntent.findMany({ where: { merchantId: m.merchantId, livemode: true, payer: payer.address } });
    expect(pis).toMatchObject([
      { status: "settled", source: "a2a", settlement: expect.objectContaining({ transaction: receipt.transaction }) },
    ]);
  });

  it("the SDK's paywallHttp x402 path with a live key is paid on chain by the stock @x402/fetch", async () => {
    const service = { baseUrl: base, apiKey: m.liveKey };
    let runs = 0;
    const handler = paywallHttp({
      backend: serviceBackend(service),
      consumed: serviceConsumedStore({ ...service, merchantId: m.merchantId }),
      merchantId: m.merchantId,
      price: PRICE_CENTS,
      currency: "usd",
      sku: "api:live",
      x402: service,
    })(async () => {
      runs++;
      return Response.json({ weather: "sunny" });
    });
    const listening = await serveFetch(handler);
    try {
      const url = `${listening.url}/weather`;
      const payer = await stockPayer(chain, 1_000_000n);
      const before = await chain.balanceOf(payout);
      const res = await payer.pay(url);
      expect(res.status).toBe(200);
      const paid = await res.json();
      expect(paid).toMatchObject({ weather: "sunny", payment: { status: "paid" } });
      expect(runs).toBe(1);
      const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await chain.balanceOf(payout)).toBe(before + PRICE);
      const pis = await getDb().paymentIntent.findMany({ where: { merchantId: m.merchantId, livemode: true, payer: payer.address } });
      expect(pis).toMatchObject([
        { id: paid.payment.paymentIntentId, status: "settled", settlement: expect.objectContaining({ transaction: receipt.transaction }) },
      ]);
    } finally {
      await listening.close();
    }
  });
});

describe("operations", () => {
  it("the facilitator account's gas is low below the threshold, not above; /ready does not depend on it", async () => {
    const network = {
      caip2: chain.network,
      v1Name: null,
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      asset: chain.token.address,
      extra: { name: chain.token.name, version: chain.token.version },
      decimals: 6,
    };
    const account = privateKeyToAccount(chain.facilitatorKey).address;
    expect(await lowBalances([network], account, 1n)).toEqual([]);
    expect(await lowBalances([network], account, 10n ** 30n)).toEqual([
      expect.objectContaining({ network: chain.network, account, threshold: "1000000000000" }),
    ]);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
  });
});

describe("live x402 across two server processes", () => {
  beforeAll(async () => {
    servers.push(await startTestServer(liveSettings(chain)));
  }, 60_000);

  it("20 concurrent settlements of one authorization: one transfer on chain, one PaymentIntent", async () => {
    const payer = await stockPayer(chain, 1_000_000n);
    const accepted = await facilitatorRequirements();
    const payload = await payer.client.createPaymentPayload({
      x402Version: 2,
      resource: { url: "https://merchant.test/one" },
      accepts: [accepted],
    });
    const body = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    const before = await chain.balanceOf(payout);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call("POST", "/x402/settle", { base: servers[i % 2].url, key: m.liveKey, body })),
    );
    for (const answer of answers) expect([200]).toContain(answer.status);
    const hashes = new Set(answers.filter((a) => a.body.success).map((a) => a.body.transaction));
    expect(hashes.size).toBe(1);
    for (const answer of answers.filter((a) => !a.body.success)) expect(answer.body.errorReason).toBe("settlement_pending");
    expect(await chain.balanceOf(payout)).toBe(before + PRICE);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    const pis = await getDb().paymentIntent.findMany({ where: { merchantId: m.merchantId, livemode: true, payer: payer.address } });
    expect(pis).toHaveLength(1);
  });

  it("20 distinct authorizations settled concurrently across two processes: all land, one transaction each", async () => {
    const accepted = await facilitatorRequirements();
    const payers = [];
    for (let i = 0; i < 20; i++) payers.push(await stockPayer(chain, 1_000_000n)); // the token's minter sends one at a time
    const bodies = await Promise.all(
      payers.map(async (payer, i) => {
        const payload = await payer.client.createPaymentPayload({
          x402Version: 2,
          resource: { url: `https://merchant.test/${i}` },
          accepts: [accepted],
        });
        return { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
      }),
    );
    const before = await chain.balanceOf(payout);
    const answers = await Promise.all(
      bodies.map((body, i) => call("POST", "/x402/settle", { base: servers[i % 2].url, key: m.liveKey, body })),
    );
    for (const answer of answers) expect(answer.body).toMatchObject({ success: true, transaction: expect.stringMatching(/^0x/) });
    expect(new Set(answers.map((a) => a.body.transaction)).size).toBe(20);
    expect(await chain.balanceOf(payout)).toBe(before + 20n * PRICE);
    for (const payer of payers) expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("a process killed right after broadcasting: after a restart the tick captures it exactly once", async () => {
    const payer = await stockPayer(chain, 1_000_000n);
    const accepted = await facilitatorRequirements();
    const payload = await payer.client.createPaymentPayload({
      x402Version: 2,
      resource: { url: "https://merchant.test/crash" },
      accepts: [accepted],
    });
    const body = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    const victim = servers.pop()!;
    const died = await call("POST", "/x402/settle", {
      base: victim.url,
      key: m.liveKey,
      body,
      headers: { "x-test-fault": "after-broadcast:exit" },
    }).catch((err: Error) => err);
    expect(died).toBeInstanceOf(Error);
    await waitForExit(victim);
    // The transfer is on chain; the books hold a processing PaymentIntent.
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    const [processing] = await getDb().paymentIntent.findMany({
      where: { merchantId: m.merchantId, livemode: true, payer: payer.address },
    });
    expect(processing.status).toBe("processing");

    servers.push(await startTestServer(liveSettings(chain)));
    await tick(servers[1].url);
    await tick(servers[1].url);
    const pis = await getDb().paymentIntent.findMany({ where: { merchantId: m.merchantId, livemode: true, payer: payer.address } });
    expect(pis.map((p) => p.status)).toEqual(["settled"]);
    const captures = await getDb().ledgerEntry.count({ where: { paymentIntentId: pis[0].id, kind: "capture", account: "payer" } });
    expect(captures).toBe(1);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  }, 60_000);

  /** The facilitator's own requirements for this merchant (GET /x402/supported), at the price. */
  async function facilitatorRequirements(): Promise<PaymentRequirements> {
    const kind = (await call("GET", "/x402/supported", { base, key: m.liveKey })).body.kinds[0];
    return {
      scheme: "exact",
      network: kind.network,
      asset: kind.extra.asset,
      amount: PRICE.toString(),
      payTo: kind.extra.payTo,
      maxTimeoutSeconds: 300,
      extra: { name: kind.extra.name, version: kind.extra.version },
    };
  }
});

describe("live x402 when the node is down", () => {
  let down: TestChain;
  let server: ServerProcess;
  beforeAll(async () => {
    down = await startTestChain();
    server = await startTestServer(liveSettings(down));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("the node stopped: 502 UPSTREAM_ERROR on a hosted resource and unexpected_settle_error on /x402/settle; nothing captured", async () => {
    const { merchant } = await merchantPaidOn(down, server.url, "live x402, node down");
    const resource = await liveResource(server.url, merchant.liveKey);
    const payer = await stockPayer(down, 1_000_000n);
    const { header, payload } = await signedFor(payer, `${server.url}/x402/r/${resource.id}`);
    await down.stop();

    const hosted = await fetch(`${server.url}/x402/r/${resource.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(hosted.status).toBe(502);
    expect((await hosted.json()).error.code).toBe("UPSTREAM_ERROR");
    const body = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    const settle = await call("POST", "/x402/settle", { base: server.url, key: merchant.liveKey, body });
    expect(settle.status).toBe(502);
    expect(settle.body).toMatchObject({ success: false, errorReason: "unexpected_settle_error", transaction: "" });
    expect(await livePaymentIntents(merchant.merchantId)).toHaveLength(0);
  });
});
