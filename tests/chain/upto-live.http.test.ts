// Issue 34, item 1 (live through the service): x402 `upto` of a live hosted resource settled on the test chain.
// Permit2 and the x402 upto proxy at their canonical addresses (scripts/lib/upto-contracts.ts), the service in live
// mode on the chain (X402_RPC_URLS / X402_ASSETS), the stock @x402/fetch client with @x402/evm/upto/client's scheme
// authorizing the maximum (100 units), the merchant's server reporting 37 units in X-Usage-Units: the chain moves
// exactly 37 (one Transfer, from the payer to the payout address), the PaymentIntent and the ledger say 37, the same
// payment again moves nothing. Through live POST /x402/settle: a settlement above the maximum is refused with nothing
// sent; 37 is settled on chain once, and the same settle again answers its first result.
import type { PaymentRequirements } from "@x402/core/types";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { getAddress, parseAbi, parseEventLogs, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { startTestChain, type TestChain } from "../../scripts/lib/test-chain";
import { installUptoContracts, UPTO_PROXY_ADDRESS } from "../../scripts/lib/upto-contracts";
import { serveFetch, type FetchServer } from "../helpers/fetch-server";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";
import { permit2Payer } from "./permit2-payer";

const CENT = 10_000n; // atomic units of USDC per cent
const USED = 37; // units the merchant's server reports, a cent each
const TRANSFER = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);

let chain: TestChain;
let server: ServerProcess;
let origin: FetchServer;
let base = "";
let m: TestMerchant;
let payout: Hex;

beforeAll(async () => {
  chain = await startTestChain();
  await installUptoContracts(chain.rpcUrl);
  server = await startTestServer({
    X402_RPC_URLS: JSON.stringify({ [chain.network]: chain.rpcUrl }),
    X402_ASSETS: JSON.stringify({
      [chain.network]: { address: chain.token.address, name: chain.token.name, version: chain.token.version, decimals: 6 },
    }),
    X402_FACILITATOR_PRIVATE_KEY: chain.facilitatorKey,
    X402_CONFIRMATION_TIMEOUT_MS: "3000",
  });
  base = server.url;
  origin = await serveFetch(async () => Response.json({ tokens: USED }, { headers: { "X-Usage-Units": String(USED) } }));
  m = await createTestMerchant("live upto seller");
  payout = privateKeyToAccount(generatePrivateKey()).address;
  const set = await call("POST", "/v1/x402/payout_addresses", { base, key: m.liveKey, body: { network: chain.network, address: payout } });
  expect(set.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await origin?.close();
  await server?.stop();
  await chain?.stop();
});

/** The token's Transfer events of a transaction. */
async function transfersOf(hash: string) {
  const receipt = await chain.client.getTransactionReceipt({ hash: hash as Hex });
  expect(receipt.status).toBe("success");
  expect(receipt.to?.toLowerCase()).toBe(UPTO_PROXY_ADDRESS.toLowerCase());
  return parseEventLogs({ abi: TRANSFER, eventName: "Transfer", logs: receipt.logs }).map((log) => ({
    token: getAddress(log.address),
    from: log.args.from,
    to: log.args.to,
    value: log.args.value,
  }));
}

describe("live x402 upto through the service, on the test chain", () => {
  it("authorized 100, the origin reports 37: the chain moves 37 once, the PaymentIntent and the ledger say 37, a replay moves nothing", async () => {
    const created = await call("POST", "/v1/paid_resources", {
      base,
      key: m.liveKey,
      body: { name: "Tokens", scheme: "upto", maxAmount: 100, unitAmount: 1, currency: "usd", url: `${origin.url}/generate` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const resourceUrl = `${base}/x402/r/${created.body.id}`;
    const payer = await permit2Payer(chain, 1_000_000n);
    const sent: string[] = [];
    const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const header = request.headers.get("payment-signature");
      if (header) sent.push(header);
      return fetch(request);
    };

    const res = await wrapFetchWithPayment(recording as typeof fetch, payer.client)(resourceUrl);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ tokens: USED });
    const accepted = JSON.parse(Buffer.from(sent[0], "base64").toString("utf8")).accepted;
    expect(accepted).toMatchObject({ scheme: "upto", amount: (100n * CENT).toString() }); // the maximum was authorized
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: chain.network, payer: payer.address, amount: (37n * CENT).toString() });

    // The chain: one Transfer of exactly 37 cents' worth, from the payer to the payout address.
    expect(await transfersOf(receipt.transaction)).toEqual([
      { token: getAddress(chain.token.address), from: payer.address, to: payout, value: 37n * CENT },
    ]);
    expect(await chain.balanceOf(payout)).toBe(37n * CENT);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - 37n * CENT);

    // The books: one live PaymentIntent of 37, settled to the merchant's wallet; the ledger moved 37.
    const pis = await getDb().paymentIntent.findMany({ where: { paidResourceId: created.body.id } });
    expect(pis).toHaveLength(1);
    const shown = await call("GET", `/v1/payment_intents/${pis[0].id}`, { base, key: m.liveKey });
    expect(shown.body).toMatchObject({ status: "settled", amount: USED, amountCaptured: USED, source: "x402", livemode: true });
    expect(shown.body.settlement).toMatchObject({ transaction: receipt.transaction, payTo: payout, payer: payer.address });
    const entries = await getDb().ledgerEntry.findMany({ where: { paymentIntentId: pis[0].id } });
    expect(entries.map((e) => [e.kind, e.account, e.amount]).sort()).toEqual(
      [
        ["capture", "payer", -USED],
        ["capture", "merchant_pending", USED],
        ["payout", "merchant_pending", -USED],
        ["payout", "merchant_paid_out", USED],
      ].sort(),
    );
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);

    // The same payment again: the same content and receipt, nothing sent, nothing charged.
    const block = await chain.blockNumber();
    const again = await fetch(resourceUrl, { headers: { "PAYMENT-SIGNATURE": sent[0] } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ tokens: USED });
    expect(decodePaymentResponseHeader(again.headers.get("payment-response")!)).toMatchObject({ transaction: receipt.transaction });
    expect(await chain.blockNumber()).toBe(block);
    expect(await chain.balanceOf(payout)).toBe(37n * CENT);
    expect(await getDb().paymentIntent.count({ where: { paidResourceId: created.body.id } })).toBe(1);
  }, 30_000);

  it("live POST /x402/settle: above the maximum refused with nothing sent; 37 settled on chain once, the same settle answered again", async () => {
    const supported = await call("GET", "/x402/supported", { base, key: m.liveKey });
    const kind = supported.body.kinds.find((k: { scheme: string }) => k.scheme === "upto");
    expect(kind.extra.facilitatorAddress).toBe(privateKeyToAccount(chain.facilitatorKey).address);
    const { payTo, asset, facilitatorAddress, name, version } = kind.extra;
    const requirements: PaymentRequirements = {
      scheme: "upto",
      network: kind.network,
      amount: (100n * CENT).toString(),
      asset,
      payTo,
      maxTimeoutSeconds: 300,
      extra: { name, version, facilitatorAddress },
    };
    const payer = await permit2Payer(chain, 2_000_000n);
    const paymentPayload = await payer.client.createPaymentPayload({
      x402Version: 2,
      resource: { url: "http://merchant.test/generate" },
      accepts: [requirements],
    });
    const settle = (cents: bigint) =>
      call("POST", "/x402/settle", {
        base,
        key: m.liveKey,
        body: { x402Version: 2, paymentPayload, paymentRequirements: { ...requirements, amount: (cents * CENT).toString() } },
      });
    const verified = await call("POST", "/x402/verify", {
      base,
      key: m.liveKey,
      body: { x402Version: 2, paymentPayload, paymentRequirements: requirements },
    });
    expect(verified.body).toMatchObject({ isValid: true, payer: payer.address });

    const block = await chain.blockNumber();
    const paidBefore = await chain.balanceOf(payout);
    const over = await settle(101n);
    expect(over.body).toMatchObject({ success: false, errorReason: "invalid_upto_evm_payload_settlement_exceeds_amount" });
    expect(await chain.blockNumber()).toBe(block);

    const settled = await settle(37n);
    expect(settled.body, JSON.stringify(settled.body)).toMatchObject({
      success: true,
      payer: payer.address,
      amount: (37n * CENT).toString(),
    });
    expect(await transfersOf(settled.body.transaction)).toEqual([
      { token: getAddress(chain.token.address), from: payer.address, to: payout, value: 37n * CENT },
    ]);
    const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: settled.body.extensions.paymentIntentId } });
    expect(pi).toMatchObject({ status: "settled", amount: USED, amountCaptured: USED, livemode: true });

    const mined = await chain.blockNumber();
    const again = await settle(37n);
    expect(again.body).toMatchObject({ success: true, transaction: settled.body.transaction, extensions: { replayed: true } });
    expect(await chain.blockNumber()).toBe(mined);
    expect(await chain.balanceOf(payout)).toBe(paidBefore + 37n * CENT);
  }, 30_000);
});
