// A real EVM chain for the tests and benchmarks of live x402 (docs/x402.md, "Going live"): anvil from the
// @foundry-rs/anvil package (its Linux binary ships inside the package; nothing is downloaded), a USDC-compatible
// EIP-3009 token compiled from contracts/TestUsdc.sol with solc-js, and Multicall3 (contracts/Multicall3.sol) put
// at its canonical address, since the official x402 facilitator diagnoses refusals through it and anvil has none.
// Anvil mines each transaction at once unless told otherwise (setAutomine).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import solc from "solc";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
  type Abi,
  type Chain,
  type Hex,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { freePort } from "./ports";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CONTRACTS = path.join(ROOT, "contracts");

/** Where every EVM chain has Multicall3 (viem and x402 call it there). */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** Anvil's first development account (a public, well-known key, funded by anvil): deploys and mints. */
const DEPLOYER_KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/** What the facilitator account starts with, for gas. */
const FACILITATOR_ETH = 10n ** 20n;

interface Compiled {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

let compiled: Record<string, Compiled> | undefined;

/** contracts/*.sol compiled once per process with solc-js (its compiler is wasm inside the package). */
export function compileContracts(): Record<string, Compiled> {
  if (compiled) return compiled;
  const sources = Object.fromEntries(
    ["TestUsdc.sol", "Multicall3.sol"].map((file) => [file, { content: readFileSync(path.join(CONTRACTS, file), "utf8") }]),
  );
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  compiled = {};
  for (const file of Object.values(output.contracts)) {
    for (const [name, contract] of Object.entries(file)) {
      compiled[name] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      };
    }
  }
  return compiled;
}

/** The anvil binary of this platform's package (@foundry-rs/anvil-<os>-<arch>: linux-amd64, linux-arm64, ...). */
function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return path.join(path.dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), "bin/anvil");
}

export interface TestToken {
  address: Hex;
  /** Its EIP-712 domain, as x402 requirements' `extra` name it. */
  name: string;
  version: string;
  decimals: number;
}

export interface TestChain {
  rpcUrl: string;
  chainId: number;
  /** CAIP-2 id (`eip155:<chainId>`). */
  network: string;
  chain: Chain;
  token: TestToken;
  /** The gas-paying facilitator account's key (a new account holding 100 ETH). */
  facilitatorKey: Hex;
  client: PublicClient;
  /** A new payer account holding `atomic` token units (and no ETH: EIP-3009 needs none). */
  newPayer(atomic: bigint): Promise<{ key: Hex; address: Hex }>;
  mint(to: Hex, atomic: bigint): Promise<void>;
  balanceOf(address: Hex): Promise<bigint>;
  blockNumber(): Promise<bigint>;
  /** Off: transactions wait in the mempool until mine() (a settlement sent but not confirmed). */
  setAutomine(on: boolean): Promise<void>;
  mine(blocks?: number): Promise<void>;
  /** Stops the node (SIGTERM). */
  stop(): Promise<void>;
}

async function waitForRpc(rpcUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}`);
    const answer = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    }).catch(() => null);
    if (answer?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`anvil did not answer at ${rpcUrl} within 20 s`);
}

/** Starts anvil on a free port, deploys the token (name "USDC", version "2", 6 decimals) and Multicall3. */
export async function startTestChain(options: { chainId?: number } = {}): Promise<TestChain> {
  const chainId = options.chainId ?? 31337;
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const child = spawn(anvilBinary(), ["--port", String(port), "--host", "127.0.0.1", "--chain-id", String(chainId), "--quiet"], {
    stdio: "ignore",
  });
  const failedToStart = new Promise<never>((_, reject) => child.once("error", reject));
  await Promise.race([waitForRpc(rpcUrl, child), failedToStart]);

  const chain = defineChain({
    id: chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  const client = createPublicClient({ chain, transport });
  const testClient = createTestClient({ chain, transport, mode: "anvil" });
  const deployer = createWalletClient({ chain, transport, account: privateKeyToAccount(DEPLOYER_KEY) }).extend(publicActions);
  const contracts = compileContracts();

  await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: contracts.Multicall3.deployedBytecode });
  const facilitatorKey = generatePrivateKey();
  await testClient.setBalance({ address: privateKeyToAccount(facilitatorKey).address, value: FACILITATOR_ETH });
  const token: TestToken = { address: "0x", name: "USDC", version: "2", decimals: 6 };
  const deployHash = await deployer.deployContract({
    abi: contracts.TestUsdc.abi,
    bytecode: contracts.TestUsdc.bytecode,
    args: [token.name, token.version],
  });
  token.address = (await deployer.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;

  const tokenAbi = contracts.TestUsdc.abi;
  const mint = async (to: Hex, atomic: bigint) => {
    const hash = await deployer.writeContract({ address: token.address, abi: tokenAbi, functionName: "mint", args: [to, atomic] });
    await deployer.waitForTransactionReceipt({ hash });
  };
  return {
    rpcUrl,
    chainId,
    network: `eip155:${chainId}`,
    chain,
    token,
    facilitatorKey,
    client,
    mint,
    async newPayer(atomic) {
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      if (atomic > 0n) await mint(address, atomic);
      return { key, address };
    },
    balanceOf: async (address) =>
      (await client.readContract({ address: token.address, abi: tokenAbi, functionName: "balanceOf", args: [address] })) as bigint,
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    setAutomine: (on) => testClient.setAutomine(on),
    mine: (blocks = 1) => testClient.mine({ blocks }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
