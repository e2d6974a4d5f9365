// The facilitator account as the official x402 exact scheme (@x402/evm) wants it: a FacilitatorEvmSigner over
// viem, reading from and sending to one chain's JSON-RPC URL with the account's key. viem's own gas and fee
// estimation apply; the scheme calls it for reads (balances, authorization state, simulation), for the
// EIP-712 check, and for the one transferWithAuthorization it broadcasts per settlement.
import { toFacilitatorEvmSigner, type FacilitatorEvmSigner } from "@x402/evm";
import { createWalletClient, defineChain, http, publicActions, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface ChainEndpoint {
  chainId: number;
  rpcUrl: string;
}

/** How long the scheme waits for a receipt before it gives the settlement up as pending. */
const CONFIRMATION_TIMEOUT_MS = 30_000;

export function facilitatorSigner(endpoint: ChainEndpoint, privateKey: Hex): FacilitatorEvmSigner {
  const chain = defineChain({
    id: endpoint.chainId,
    name: `eip155:${endpoint.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [endpoint.rpcUrl] } },
  });
  const account = privateKeyToAccount(privateKey);
  const wallet = createWalletClient({ chain, account, transport: http(endpoint.rpcUrl, { retryCount: 0 }) }).extend(publicActions);
  // The scheme's argument types are looser than viem's (records rather than typed ABIs): passed through as given.
  return toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => wallet.readContract(args as Parameters<typeof wallet.readContract>[0]),
      verifyTypedData: (args) => wallet.verifyTypedData(args as Parameters<typeof wallet.verifyTypedData>[0]),
      writeContract: (args) => wallet.writeContract(args as Parameters<typeof wallet.writeContract>[0]),
      sendTransaction: (args) => wallet.sendTransaction(args),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
      getCode: (args) => wallet.getCode(args),
    },
    { confirmationTimeoutMs: CONFIRMATION_TIMEOUT_MS },
  );
}
