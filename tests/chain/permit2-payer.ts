// A payer of x402 `upto` on the test chain: an account holding the token that approved Permit2 (the one transaction
// upto asks of a payer; it pays its own gas, so it is given ETH), and the stock upto client (@x402/evm/upto/client)
// over it, limited to the test token (a custom token: allowed by name, as any payer of one does).
import { x402Client } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { createWalletClient, http, maxUint256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compileContracts, type TestChain } from "../../scripts/lib/test-chain";
import { PERMIT2_ADDRESS } from "../../scripts/lib/upto-contracts";

export async function permit2Payer(chain: TestChain, atomic: bigint) {
  const payer = await chain.newPayer(atomic);
  const account = privateKeyToAccount(payer.key);
  await fetch(chain.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [account.address, "0xde0b6b3a7640000"] }),
  });
  const wallet = createWalletClient({ chain: chain.chain, transport: http(chain.rpcUrl), account });
  const hash = await wallet.writeContract({
    address: chain.token.address,
    abi: compileContracts().TestUsdc.abi,
    functionName: "approve",
    args: [PERMIT2_ADDRESS, maxUint256],
  });
  await chain.client.waitForTransactionReceipt({ hash });
  const client = new x402Client()
    .setSpendControls({ allowedAssets: [{ network: chain.network as `${string}:${string}`, asset: chain.token.address }] })
    .register(chain.network as `${string}:${string}`, new UptoEvmScheme(toClientEvmSigner(account, chain.client)));
  return { ...payer, account, client };
}
