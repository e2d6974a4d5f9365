// Issue 34, item 1 (live part, on the test chain): x402 `upto` with the x402 project's own parts on a real node.
// Permit2 and the x402 upto proxy are compiled from their MIT sources and put at their canonical addresses
// (scripts/lib/upto-contracts.ts); the payer approves Permit2 once; the stock client (@x402/evm/upto/client) signs an
// authorization of 100 cents; the official facilitator scheme (@x402/evm/upto/facilitator's UptoEvmScheme) over the
// service's chain signer (lib/x402/chain-signer.ts, its write-ahead hook recording the transaction before it is sent)
// verifies it against the chain and settles 37 cents: the chain moves 37, once.
import type { PaymentRequirements } from "@x402/core/types";
import { UptoEvmScheme as UptoFacilitatorScheme } from "@x402/evm/upto/facilitator";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facilitatorSigner } from "../../lib/x402/chain-signer";
import { startTestChain, type TestChain } from "../../scripts/lib/test-chain";
import { installUptoContracts, PERMIT2_ADDRESS, UPTO_PROXY_ADDRESS } from "../../scripts/lib/upto-contracts";
import { permit2Payer } from "./permit2-payer";

const CENT = 10_000n;

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain();
  await installUptoContracts(chain.rpcUrl);
}, 60_000);

afterAll(async () => {
  await chain?.stop();
});

describe("x402 upto on the test chain (Permit2 and the upto proxy from their sources)", () => {
  it("the contracts are at their canonical addresses", async () => {
    expect((await chain.client.getCode({ address: PERMIT2_ADDRESS }))?.length).toBeGreaterThan(1000);
    expect((await chain.client.getCode({ address: UPTO_PROXY_ADDRESS }))?.length).toBeGreaterThan(1000);
  });

  /** A fresh payee's requirements of 100 cents at most, and the stock upto client's authorization of them by a payer holding `funds`. */
  async function authorizedUpTo100(facilitator: UptoFacilitatorScheme, funds: bigint) {
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const requirements: PaymentRequirements = {
      scheme: "upto",
      network: chain.network as `eip155:${string}`,
      amount: (100n * CENT).toString(),
      asset: chain.token.address,
      payTo,
      maxTimeoutSeconds: 300,
      extra: { name: chain.token.name, version: chain.token.version, ...facilitator.getExtra(chain.network) },
    };
    const payer = await permit2Payer(chain, funds);
    const payload = await payer.client.createPaymentPayload({
      x402Version: 2,
      resource: { url: "http://merchant.test/generate" },
      accepts: [requirements],
    });
    return { payTo, requirements, payer, payload };
  }

  it("authorized 100, settled 37 by the official facilitator scheme over our signer: the chain moves 37, once", async () => {
    const recorded: Hex[] = [];
    const signer = facilitatorSigner({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }, chain.facilitatorKey, {
      beforeBroadcast: async (hash) => void recorded.push(hash),
    });
    const facilitator = new UptoFacilitatorScheme(signer);
    const { payTo, requirements, payer, payload } = await authorizedUpTo100(facilitator, 1_000_000n);

    expect(await facilitator.verify(payload, requirements)).toMatchObject({ isValid: true, payer: payer.address });
    const settled = await facilitator.settle(payload, { ...requirements, amount: (37n * CENT).toString() });
    expect(settled).toMatchObject({ success: true, amount: (37n * CENT).toString(), payer: payer.address });
    expect(recorded).toEqual([settled.transaction]); // recorded before it was sent (the write-ahead hook)
    const receipt = await chain.client.getTransactionReceipt({ hash: settled.transaction as Hex });
    expect(receipt.status).toBe("success");
    expect(receipt.to?.toLowerCase()).toBe(UPTO_PROXY_ADDRESS.toLowerCase());
    expect(await chain.balanceOf(payTo)).toBe(37n * CENT);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - 37n * CENT);

    // The authorization again (its Permit2 nonce spent on chain): refused, nothing moves.
    const again = await facilitator.settle(payload, { ...requirements, amount: (37n * CENT).toString() }).catch((err) => err);
    expect(again).toMatchObject({ success: false });
    expect(await chain.balanceOf(payTo)).toBe(37n * CENT);
  }, 60_000);

  it("a settlement above the authorized maximum is refused before anything is sent", async () => {
    const signer = facilitatorSigner({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }, chain.facilitatorKey);
    const facilitator = new UptoFacilitatorScheme(signer);
    const { payTo, requirements, payload } = await authorizedUpTo100(facilitator, 2_000_000n);
    const block = await chain.blockNumber();
    expect(await facilitator.settle(payload, { ...requirements, amount: (101n * CENT).toString() })).toMatchObject({
      success: false,
      errorReason: "invalid_upto_evm_payload_settlement_exceeds_amount",
    });
    expect(await chain.blockNumber()).toBe(block);
    expect(await chain.balanceOf(payTo)).toBe(0n);
  }, 60_000);
});
