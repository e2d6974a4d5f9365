// MPP's EVM charge method (mppx/evm; docs/mpp.md "The evm method") on a real chain: anvil with the EIP-3009 test
// USDC (scripts/lib/test-chain.ts), the service in live mode on it (X402_RPC_URLS / X402_ASSETS), the stock mppx
// client with mppx/evm/client's charge method paying a hosted resource (/mpp/r/:id) and a merchant's own challenge
// (POST /mpp/verify). Read back from the chain (balances, transactions, block numbers) and from the books
// (PaymentIntent source mpp, order, ledger). Test mode's offline path (Base Sepolia, no chain) is proven here too.
import { Challenge, Credential, Receipt } from "mppx";
import { Mppx } from "mppx/client";
import { charge as evmCharge } from "mppx/evm";
import { evm } from "mppx/evm/client";
import { getAddress, parseAbi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payToAddress } from "../../lib/chains/payable-networks";
import { BASE_SEPOLIA } from "../../lib/chains/networks";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { startTestChain, type TestChain } from "../../scripts/lib/test-chain";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

const PRICE_CENTS = 25;
const PRICE = 250_000n; // atomic units of 0.25 USDC
const TRANSFER = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);

let chain: TestChain;
let server: ServerProcess;
let base = "";
let m: TestMerchant;
let payout: Hex;

beforeAll(async () => {
  chain = await startTestChain();
  server = await startTestServer({
    X402_RPC_URLS: JSON.stringify({ [chain.network]: chain.rpcUrl }),
    X402_ASSETS: JSON.stringify({
      [chain.network]: { address: chain.token.address, name: chain.token.name, version: chain.token.version, decimals: 6 },
    }),
    X402_FACILITATOR_PRIVATE_KEY: chain.facilitatorKey,
    X402_CONFIRMATION_TIMEOUT_MS: "1500",
  });
  base = server.url;
  m = await createTestMerchant("live MPP evm seller");
  payout = privateKeyToAccount(generatePrivateKey()).address;
  const set = await call("POST", "/v1/x402/payout_addresses", { base, key: m.liveKey, body: { network: chain.network, address: payout } });
  expect(set.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await chain?.stop();
});

async function resource(key: string) {
  const res = await call("POST", "/v1/paid_resources", {
    base,
    key,
    body: { name: "Tide tables", amount: PRICE_CENTS, currency: "usd", content: { tides: "high" } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

/** The stock mppx client with the evm charge method, for a payer's account; `sent` collects the credentials it sent. */
function evmClient(key: Hex, chainId: number, token: { name: string; version: string }) {
  const sent: string[] = [];
  const recording = (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const authorization = headers.get("authorization");
    if (authorization) sent.push(authorization);
    return fetch(input, init);
  };
  const mppx = Mppx.create({
    methods: [evm.charge({ account: privateKeyToAccount(key), authorization: token, networks: [chainId] })],
    polyfill: false,
    fetch: recording,
  });
  return { mppx, sent };
}

const transfersFrom = async (payer: Hex) =>
  chain.client.getContractEvents({
    address: chain.token.address,
    abi: TRANSFER,
    eventName: "Transfer",
    args: { from: payer },
    fromBlock: 0n,
  });

const paymentIntentsOf = (paidResourceId: string) => getDb().paymentIntent.findMany({ where: { paidResourceId } });

describe("MPP evm method, live on the local chain", () => {
  let url = "";
  let payer: { key: Hex; address: Hex };
  let credential = "";
  let first: { body: unknown; receipt: string };

  it("a live resource's 402 offers the evm method beside service: the merchant's payout address, its price in USDC", async () => {
    url = `${base}/mpp/r/${(await resource(m.liveKey)).id}`;
    const unpaid = await fetch(url);
    expect(unpaid.status).toBe(402);
    const challenges = Challenge.fromResponseList(unpaid);
    expect(challenges.map((c) => c.method)).toEqual(["service", "evm"]);
    expect(challenges[1]).toMatchObject({
      intent: "charge",
      request: {
        amount: PRICE.toString(),
        currency: getAddress(chain.token.address),
        recipient: payout,
        methodDetails: { chainId: chain.chainId, credentialTypes: ["authorization"], decimals: 6 },
      },
    });
  });

  it("the mppx/evm client pays it: USDC moves once on chain to the payout address, a PaymentIntent with source mpp", async () => {
    payer = await chain.newPayer(1_000_000n);
    const { mppx, sent } = evmClient(payer.key, chain.chainId, chain.token);
    const before = await chain.balanceOf(payout);

    const res = await mppx.fetch(url);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ tides: "high" });
    const receiptHeader = res.headers.get("payment-receipt")!;
    const receipt = Receipt.deserialize(receiptHeader);
    expect(receipt).toMatchObject({ method: "evm", status: "success" });
    expect(receipt.reference).toMatch(/^0x[0-9a-f]{64}$/);
    credential = sent.at(-1)!;
    first = { body, receipt: receiptHeader };

    const mined = await chain.client.getTransactionReceipt({ hash: receipt.reference as Hex });
    expect(mined.status).toBe("success");
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect(await chain.balanceOf(payout)).toBe(before + PRICE);
    expect(await transfersFrom(payer.address)).toHaveLength(1);

    const pis = await paymentIntentsOf(new URL(url).pathname.split("/").at(-1)!);
    expect(pis).toHaveLength(1);
    const shown = await call("GET", `/v1/payment_intents/${pis[0].id}`, { base, key: m.liveKey });
    expect(shown.body).toMatchObject({
      status: "settled",
      source: "mpp",
      amount: PRICE_CENTS,
      amountCaptured: PRICE_CENTS,
      livemode: true,
      payer: payer.address,
      settlement: { network: chain.network, transaction: receipt.reference, payer: payer.address, payTo: payout },
    });
    expect((await call("GET", `/v1/orders/${pis[0].orderId}`, { base, key: m.liveKey })).body.status).toBe("paid");
    const entries = await getDb().ledgerEntry.findMany({ where: { paymentIntentId: pis[0].id } });
    expect(entries.map((e) => [e.kind, e.account, e.amount]).sort()).toEqual(
      [
        ["capture", "payer", -PRICE_CENTS],
        ["capture", "merchant_pending", PRICE_CENTS],
        ["payout", "merchant_pending", -PRICE_CENTS],
        ["payout", "merchant_paid_out", PRICE_CENTS],
      ].sort(),
    );
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("the same credential sent again gets the same content and Payment-Receipt; nothing more moves", async () => {
    const block = await chain.blockNumber();
    const again = await fetch(url, { headers: { Authorization: credential } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first.body);
    expect(again.headers.get("payment-receipt")).toBe(first.receipt);
    expect(await chain.blockNumber()).toBe(block);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect(await transfersFrom(payer.address)).toHaveLength(1);
    expect(await paymentIntentsOf(new URL(url).pathname.split("/").at(-1)!)).toHaveLength(1);
  });

  it("the used authorization presented against a new challenge is refused; nothing moves", async () => {
    const fresh = Challenge.fromResponseList(await fetch(url)).find((c) => c.method === "evm")!;
    const used = Credential.deserialize(credential);
    const moved = Credential.serialize(Credential.from({ challenge: fresh, payload: used.payload, source: used.source }));
    const block = await chain.blockNumber();
    const refused = await fetch(url, { headers: { Authorization: moved } });
    expect(refused.status).toBe(402);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    const problem = await refused.json();
    expect(problem.type).toBe("https://paymentauth.org/problems/verification-failed");
    expect(problem.detail).toMatch(/challenge hash mismatch/);
    expect(Challenge.fromResponseList(refused).map((c) => c.method)).toEqual(["service", "evm"]);
    expect(await chain.blockNumber()).toBe(block);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect(await transfersFrom(payer.address)).toHaveLength(1);
    expect(await paymentIntentsOf(new URL(url).pathname.split("/").at(-1)!)).toHaveLength(1);
  });

  it("a merchant's own evm challenge is settled on chain by POST /mpp/verify, once", async () => {
    const request = {
      amount: "0.25",
      chainId: chain.chainId,
      currency: chain.token.address,
      decimals: 6,
      recipient: payout,
      externalId: "order-7",
    };
    const expires = new Date(Date.now() + 300_000).toISOString();
    const challenge = Challenge.fromMethod(evmCharge, { secretKey: "the merchant's own", realm: "shop.example", request, expires });
    const buyer = await chain.newPayer(1_000_000n);
    const method = evm.charge({ account: privateKeyToAccount(buyer.key), authorization: chain.token, networks: [chain.chainId] });
    const signed = await method.createCredential({ challenge: challenge as never, context: {} as never });

    const verified = await call("POST", "/mpp/verify", { base, key: m.liveKey, body: { credential: signed } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({
      object: "mpp_verification",
      challengeId: challenge.id,
      receipt: { method: "evm", status: "success", externalId: "order-7" },
      paymentIntent: { source: "mpp", status: "settled", amount: PRICE_CENTS, livemode: true },
    });
    expect(await chain.balanceOf(buyer.address)).toBe(1_000_000n - PRICE);
    const block = await chain.blockNumber();
    const again = await call("POST", "/mpp/verify", { base, key: m.liveKey, body: { credential: signed } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ replayed: true, receipt: { reference: verified.body.receipt.reference } });
    expect(again.body.paymentIntent.id).toBe(verified.body.paymentIntent.id);
    expect(await chain.blockNumber()).toBe(block);
    expect(await transfersFrom(buyer.address)).toHaveLength(1);
  });
});

describe("MPP evm method, test mode (offline: no chain)", () => {
  it("a test-mode resource offers evm on Base Sepolia at the merchant's test address; paid once, replayed, never on chain", async () => {
    const { id } = await resource(m.testKey);
    const url = `${base}/mpp/r/${id}`;
    const evmChallenge = Challenge.fromResponseList(await fetch(url)).find((c) => c.method === "evm")!;
    expect(evmChallenge.request).toMatchObject({
      amount: PRICE.toString(),
      currency: BASE_SEPOLIA.asset,
      recipient: payToAddress(m.merchantId, false),
      methodDetails: { chainId: BASE_SEPOLIA.chainId },
    });
    const { mppx, sent } = evmClient(generatePrivateKey(), BASE_SEPOLIA.chainId, BASE_SEPOLIA.extra);
    const res = await mppx.fetch(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ tides: "high" });
    const receipt = Receipt.deserialize(res.headers.get("payment-receipt")!);
    const [pi] = await paymentIntentsOf(id);
    expect(receipt).toMatchObject({ method: "evm", reference: pi.id });
    expect(pi).toMatchObject({ source: "mpp", livemode: false, amount: PRICE_CENTS, amountCaptured: PRICE_CENTS });

    const again = await fetch(url, { headers: { Authorization: sent.at(-1)! } });
    expect(again.status).toBe(200);
    expect(again.headers.get("payment-receipt")).toBe(res.headers.get("payment-receipt"));
    expect(await paymentIntentsOf(id)).toHaveLength(1);
  });
});
