// Live x402's settings (docs/x402.md, "Going live"): checked when a process starts, with errors that name the
// setting and never print the facilitator's key; each configured chain resolved to its token (the public USDC
// of Base and Base Sepolia, or its X402_ASSETS entry).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { resolveLiveNetworks } from "../../lib/chains/live-networks";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const KEY = `0x${"ab".repeat(32)}`;
const LOCAL_TOKEN = { address: `0x${"12".repeat(20)}`, name: "USDC", version: "2", decimals: 6 };

/** Loads lib/env.ts and lib/chains/live-networks.ts in a process of their own with these settings -> what it printed. */
async function start(settings: Record<string, string>) {
  const script = `const { liveNetworks } = await import("./lib/chains/live-networks.ts"); console.log(JSON.stringify(liveNetworks()));`;
  const env = { PATH: process.env.PATH, NODE_ENV: "test", ...settings } as NodeJS.ProcessEnv;
  return run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, env }).then(
    ({ stdout }) => ({ ok: true, output: stdout }),
    (err: { stdout: string; stderr: string }) => ({ ok: false, output: err.stdout + err.stderr }),
  );
}

describe("live x402 settings", () => {
  it("resolve each chain to its token: Base's public USDC, or the X402_ASSETS entry of any other", () => {
    const networks = resolveLiveNetworks({
      X402_RPC_URLS: { "eip155:8453": "https://base.example/rpc", "eip155:31337": "http://127.0.0.1:8545" },
      X402_ASSETS: { "eip155:31337": LOCAL_TOKEN },
    });
    expect(networks).toEqual([
      expect.objectContaining({
        caip2: "eip155:8453",
        chainId: 8453,
        v1Name: "base",
        asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        extra: { name: "USD Coin", version: "2" },
        rpcUrl: "https://base.example/rpc",
        decimals: 6,
      }),
      expect.objectContaining({
        caip2: "eip155:31337",
        chainId: 31337,
        v1Name: null,
        asset: LOCAL_TOKEN.address,
        rpcUrl: "http://127.0.0.1:8545",
      }),
    ]);
    expect(resolveLiveNetworks({ X402_RPC_URLS: {}, X402_ASSETS: {} })).toEqual([]);
  });

  it("refuse a chain without a known token, and a token for a chain without an RPC URL, naming both", () => {
    expect(() =>
      resolveLiveNetworks({ X402_RPC_URLS: { "eip155:31337": "http://127.0.0.1:8545" }, X402_ASSETS: { "eip155:10": LOCAL_TOKEN } }),
    ).toThrow(
      /X402_ASSETS names eip155:10, which X402_RPC_URLS does not\n\s+eip155:31337 has no public USDC this service knows: name its token in X402_ASSETS/,
    );
  });

  it("a process starts with a complete configuration and lists its chains", async () => {
    const started = await start({
      X402_RPC_URLS: JSON.stringify({ "eip155:31337": "http://127.0.0.1:8545" }),
      X402_ASSETS: JSON.stringify({ "eip155:31337": LOCAL_TOKEN }),
      X402_FACILITATOR_PRIVATE_KEY: KEY,
    });
    expect(started.ok).toBe(true);
    expect(JSON.parse(started.output)).toEqual([expect.objectContaining({ caip2: "eip155:31337", asset: LOCAL_TOKEN.address })]);
  });

  it("a process refuses to start on a bad setting, naming it, and never prints the key", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { X402_RPC_URLS: JSON.stringify({ "eip155:8453": "https://base.example/rpc" }) },
        /X402_FACILITATOR_PRIVATE_KEY: required when X402_RPC_URLS/,
      ],
      [{ X402_RPC_URLS: "{not json" }, /X402_RPC_URLS: not JSON/],
      [
        { X402_RPC_URLS: JSON.stringify({ base: "https://base.example/rpc" }), X402_FACILITATOR_PRIVATE_KEY: KEY },
        /X402_RPC_URLS\.base: a CAIP-2 EVM network id/,
      ],
      [
        { X402_RPC_URLS: JSON.stringify({ "eip155:8453": "not a url" }), X402_FACILITATOR_PRIVATE_KEY: KEY },
        /X402_RPC_URLS\.eip155:8453: a JSON-RPC URL/,
      ],
      [{ X402_FACILITATOR_PRIVATE_KEY: `${KEY.slice(0, -2)}zz` }, /X402_FACILITATOR_PRIVATE_KEY: a private key: 0x and 64 hex digits/],
      [
        { X402_RPC_URLS: JSON.stringify({ "eip155:31337": "http://127.0.0.1:8545" }), X402_FACILITATOR_PRIVATE_KEY: KEY },
        /eip155:31337 has no public USDC this service knows: name its token in X402_ASSETS/,
      ],
      [{ X402_CONFIRMATIONS: "0" }, /X402_CONFIRMATIONS/],
    ];
    for (const [settings, expected] of cases) {
      const started = await start(settings);
      expect(started.ok, JSON.stringify(settings)).toBe(false);
      expect(started.output).toMatch(expected);
      expect(started.output).not.toContain(KEY.slice(2, 20));
      expect(started.output).not.toContain("ababababab");
    }
  });
});
