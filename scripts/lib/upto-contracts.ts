// x402 `upto` on the test chain (docs/x402.md, "Usage-priced payments"): Permit2 and the x402 upto proxy at their
// canonical addresses, where @x402/evm's upto scheme calls them. No npm package ships their bytecode, so their MIT
// sources (contracts/vendor, README there) are compiled with solc-js and their runtime code put there with
// anvil_setCode. setCode runs no constructor, so the immutables are written into the runtime code here: the proxy's
// PERMIT2 (the canonical Permit2), and Permit2's cached chain id left 0 so that its domain separator is computed with
// its own address (EIP712.sol: a cache for another chain id is not used).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import solc from "solc";
import { createTestClient, http, type Hex } from "viem";

export const PERMIT2_ADDRESS: Hex = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
export const UPTO_PROXY_ADDRESS: Hex = "0x4020A4f3b7b90ccA423B9fabCc0CE57C6C240002";

const VENDOR = path.resolve(import.meta.dirname, "../../contracts/vendor");
/** Source unit names as the contracts import them -> their folder under contracts/vendor. */
const ROOTS: Record<string, string> = {
  "permit2/src": "permit2/src",
  "x402/src": "x402/src",
  "@openzeppelin/contracts": "openzeppelin/contracts",
  "solmate/src": "shims/solmate/src",
};

interface Runtime {
  code: string;
  immutables: Record<string, { start: number; length: number }[]>;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : name.endsWith(".sol") ? [full] : [];
  });
}

let compiled: { permit2: Runtime; proxy: Runtime } | undefined;

export function compileUptoContracts() {
  if (compiled) return compiled;
  const sources: Record<string, { content: string }> = {};
  for (const [unit, folder] of Object.entries(ROOTS)) {
    for (const file of files(path.join(VENDOR, folder))) {
      // Permit2 pins 0.8.17; solc-js here is a later 0.8: the pin is relaxed, nothing else changes.
      const content = readFileSync(file, "utf8").replace(/pragma solidity 0\.8\.17;/, "pragma solidity ^0.8.17;");
      sources[`${unit}/${path.relative(path.join(VENDOR, folder), file)}`] = { content };
    }
  }
  const input = {
    language: "Solidity",
    sources,
    settings: {
      // Permit2 is built with the IR pipeline (its foundry.toml: via_ir); without it, stack too deep.
      viaIR: true,
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      outputSelection: {
        "permit2/src/Permit2.sol": { Permit2: ["evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"] },
        "x402/src/x402UptoPermit2Proxy.sol": {
          x402UptoPermit2Proxy: ["evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"],
        },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<
      string,
      Record<string, { evm: { deployedBytecode: { object: string; immutableReferences?: Runtime["immutables"] } } }>
    >;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  const runtime = (file: string, name: string): Runtime => {
    const { object, immutableReferences } = output.contracts[file][name].evm.deployedBytecode;
    return { code: object, immutables: immutableReferences ?? {} };
  };
  compiled = {
    permit2: runtime("permit2/src/Permit2.sol", "Permit2"),
    proxy: runtime("x402/src/x402UptoPermit2Proxy.sol", "x402UptoPermit2Proxy"),
  };
  return compiled;
}

/** The runtime code with every immutable of it set to `value` (32 bytes, hex without 0x). */
function withImmutables(runtime: Runtime, value: string): Hex {
  let code = runtime.code;
  for (const refs of Object.values(runtime.immutables))
    for (const { start, length } of refs)
      code = code.slice(0, start * 2) + value.padStart(length * 2, "0") + code.slice((start + length) * 2);
  return `0x${code}`;
}

/** Puts Permit2 and the x402 upto proxy (PERMIT2 = the canonical Permit2) on the anvil node at `rpcUrl`. */
export async function installUptoContracts(rpcUrl: string): Promise<void> {
  const { permit2, proxy } = compileUptoContracts();
  const client = createTestClient({ mode: "anvil", transport: http(rpcUrl) });
  await client.setCode({ address: PERMIT2_ADDRESS, bytecode: withImmutables(permit2, "") });
  // The proxy's only immutable is PERMIT2 (ReentrancyGuard keeps its state in storage).
  await client.setCode({ address: UPTO_PROXY_ADDRESS, bytecode: withImmutables(proxy, PERMIT2_ADDRESS.slice(2).toLowerCase()) });
}
