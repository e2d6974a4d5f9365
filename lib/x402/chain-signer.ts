// The facilitator account as the official x402 exact scheme (@x402/evm) wants it: a FacilitatorEvmSigner over
// viem, reading from and sending to one chain's JSON-RPC URL with the account's key. viem's own gas and fee
// estimation apply; the scheme calls it for reads (balances, authorization state, simulation), for the
// EIP-712 check, and for the one transferWithAuthorization it broadcasts per settlement.
// The hooks are where the service's books meet the broadcast (settle-on-chain.ts): `send` wraps every
// transaction sent (the account's nonce lock); a contract call is signed first and its hash handed to
// `beforeBroadcast`, which records it (or refuses: then nothing is sent) BEFORE the node ever sees it, so the
// books can never miss a transaction that was sent.
import { toFacilitatorEvmSigner, type FacilitatorEvmSigner } from "@x402/evm";
import { concatHex, createWalletClient, defineChain, encodeFunctionData, http, keccak256, publicActions, type Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface ChainEndpoint {
  chainId: number;
  rpcUrl: string;
}

export interface SignerHooks {
  /** Blocks a receipt must have under it before the scheme takes it (X402_CONFIRMATIONS; default 1). */
  confirmations?: number;
  /** How long the scheme waits for the receipt before it answers `settlement_pending` (default 30 s). */
  confirmationTimeoutMs?: number;
  /** Runs each send (nonce, sign, eth_sendRawTransaction) inside it: the account's lock. */
  send?: <T>(send: () => Promise<T>) => Promise<T>;
  /** Told each contract call's hash once signed and before it is sent; a throw means it is never sent. */
  beforeBroadcast?: (hash: Hex) => Promise<void>;
  /** Told once the node took it (a test instrument's point: a crash right after broadcasting). */
  afterBroadcast?: (hash: Hex) => void;
}

const DEFAULT_CONFIRMATION_TIMEOUT_MS = 30_000;
/** How often a receipt is asked for while waiting (viem's default, 4 s, is longer than a block on Base). */
const RECEIPT_POLLING_MS = 500;

export function facilitatorSigner(endpoint: ChainEndpoint, privateKey: Hex, hooks: SignerHooks = {}): FacilitatorEvmSigner {
  const chain = defineChain({
    id: endpoint.chainId,
    name: `eip155:${endpoint.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [endpoint.rpcUrl] } },
  });
  const account = privateKeyToAccount(privateKey);
  const wallet = createWalletClient({
    chain,
    account,
    transport: http(endpoint.rpcUrl, { retryCount: 0 }),
    pollingInterval: RECEIPT_POLLING_MS,
  }).extend(publicActions);
  const send = hooks.send ?? ((call) => call());
  /** A contract call: prepared (nonce, gas, fees as viem does it), signed, recorded, then sent. */
  const writeContract = (args: {
    address: Hex;
    abi: readonly unknown[];
    functionName: string;
    args?: readonly unknown[];
    dataSuffix?: Hex;
  }) =>
    send(async () => {
      const call = encodeFunctionData({ abi: args.abi as Abi, functionName: args.functionName, args: args.args as unknown[] });
      const data = args.dataSuffix ? concatHex([call, args.dataSuffix]) : call;
      const request = await wallet.prepareTransactionRequest({ account, chain, to: args.address, data });
      const signed = await wallet.signTransaction(request as Parameters<typeof wallet.signTransaction>[0]);
      const hash = keccak256(signed);
      await hooks.beforeBroadcast?.(hash);
      await wallet.sendRawTransaction({ serializedTransaction: signed });
      hooks.afterBroadcast?.(hash);
      return hash;
    });
  // The scheme's argument types are looser than viem's (records rather than typed ABIs): passed through as given.
  return toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => wallet.readContract(args as Parameters<typeof wallet.readContract>[0]),
      verifyTypedData: (args) => wallet.verifyTypedData(args as Parameters<typeof wallet.verifyTypedData>[0]),
      writeContract: (args) => writeContract(args as Parameters<typeof writeContract>[0]),
      // Only a smart wallet's deployment (ERC-6492) sends one, and no factory is allowed (chain-facilitator.ts).
      sendTransaction: (args) => send(() => wallet.sendTransaction(args)),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt({ ...args, confirmations: hooks.confirmations ?? 1 }),
      getCode: (args) => wallet.getCode(args),
    },
    { confirmationTimeoutMs: hooks.confirmationTimeoutMs ?? DEFAULT_CONFIRMATION_TIMEOUT_MS },
  );
}
