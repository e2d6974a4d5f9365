// The test chain the live-x402 tests stand on (scripts/lib/test-chain.ts), proven with the x402 project's own
// parts before any of ours: the stock client (@x402/core's x402Client with @x402/evm's exact scheme) signs an
// EIP-3009 payment for the test token, and the official facilitator (@x402/core's x402Facilitator with
// @x402/evm's exact facilitator scheme, over our viem signer: lib/x402/chain-signer.ts) verifies it against the chain, settles it on chain
// (one transfer: the payer down, payTo up by the price), refuses the same payload a second time, and refuses a
// payer without the funds with its insufficient-balance reason (diagnosed through Multicall3) without sending.
import { x402Client } from "@x402/core/client";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme as registerClientScheme } from "@x402/evm/exact/client";
import { registerExactEvmScheme as registerFacilitatorScheme } from "@x402/evm/exact/facilitator";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facilitatorSigner } from "../../lib/x402/chain-signer";
import { startTestChain, type TestChain } from "../../scripts/lib/test-chain";

const PRICE = 250_000n; // 0.25 USDC in atomic units (6 decimals)

let chain: TestChain;
let facilitator: x402Facilitator;

beforeAll(async () => {
  chain = await startTestChain();
  facilitator = new x402Facilitator();
  registerFacilitatorScheme(facilitator, {
    signer: facilitatorSigner({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }, chain.facilitatorKey),
    networks: chain.network as `eip155:${string}`,
  });
});

afterAll(async () => {
  await chain?.stop();
});

function requirements(payTo: Hex): PaymentRequirements {
  return {
    scheme: "exact",
    network: chain.network as `eip155:${string}`,
    asset: chain.token.address,
    amount: PRICE.toString(),
    payTo,
    maxTimeoutSeconds: 300,
    extra: { name: chain.token.name, version: chain.token.version },
  };
}

/** The stock client's payment for these requirements, signed by the payer's key (a custom token: allowed by name). */
async function stockPayment(payerKey: Hex, accepted: PaymentRequirements) {
  const payer = privateKeyToAccount(payerKey);
  const client = new x402Client().setSpendControls({ allowedAssets: [{ network: accepted.network, asset: accepted.asset }] });
  registerClientScheme(client, { signer: toClientEvmSigner(payer, chain.client) });
  return client.createPaymentPayload({ x402Version: 2, resource: { url: "http://merchant.test/paid" }, accepts: [accepted] });
}

describe("the test chain, with the official x402 client and facilitator", () => {
  it("a stock-client payment is verified, settled on chain once, and refused a second time", async () => {
    const payer = await chain.newPayer(1_000_000n);
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const accepted = requirements(payTo);
    const payload = await stockPayment(payer.key, accepted);

    expect(await facilitator.verify(payload, accepted)).toMatchObject({ isValid: true, payer: payer.address });
    const settled = await facilitator.settle(payload, accepted);
    expect(settled).toMatchObject({ success: true, payer: payer.address, network: chain.network });
    const receipt = await chain.client.getTransactionReceipt({ hash: settled.transaction as Hex });
    expect(receipt.status).toBe("success");
    expect(receipt.to?.toLowerCase()).toBe(chain.token.address.toLowerCase());
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - PRICE);
    expect(await chain.balanceOf(payTo)).toBe(PRICE);

    const block = await chain.blockNumber();
    const again = await facilitator.settle(payload, accepted).catch((err: { invalidReason?: string; errorReason?: string }) => err);
    expect(again).toMatchObject({ success: false, errorReason: "invalid_exact_evm_nonce_already_used" });
    expect(await chain.blockNumber()).toBe(block); // refused before sending: no reverted transaction paid gas
    expect(await chain.balanceOf(payTo)).toBe(PRICE);
  });

  it("a payer without the funds is refused with the official reason, and nothing is sent", async () => {
    const payer = await chain.newPayer(PRICE - 1n);
    const accepted = requirements(privateKeyToAccount(generatePrivateKey()).address);
    const payload = await stockPayment(payer.key, accepted);
    const before = await chain.blockNumber();
    expect(await facilitator.verify(payload, accepted)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_insufficient_balance",
    });
    const settled = await facilitator.settle(payload, accepted).catch((err: { errorReason?: string }) => err);
    expect(settled).toMatchObject({ success: false });
    expect(await chain.blockNumber()).toBe(before);
    expect(await chain.balanceOf(payer.address)).toBe(PRICE - 1n);
  });
});
