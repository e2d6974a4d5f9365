// The SDK (packages/sdk/src) is what third parties install: it imports nothing from the service (lib/), no
// Prisma, no Next, no runtime dependency (only node: built-ins), and exports named exports only. One
// exception, kept out of the main entry: the MPP entries (mpp.ts -> mpp-method.ts, mcp-mpp.ts -> mcp-mpp-rail.ts) build on mppx, an optional
// peer dependency.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as sdk from "agent-payments-sdk";

const SDK_DIR = path.resolve(import.meta.dirname, "../../packages/sdk/src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith(".ts") ? [full] : [];
  });
}

/** Files that may import an optional peer dependency, and which. */
const OPTIONAL_PEER_IMPORTS: Record<string, string[]> = { "mpp-method.ts": ["mppx"], "mcp-mpp-rail.ts": ["mppx"] };

describe("SDK boundaries", () => {
  it("its package.json has no runtime dependency, and each optional peer it imports is declared optional", () => {
    const pkg = JSON.parse(readFileSync(path.join(SDK_DIR, "../package.json"), "utf8"));
    expect(pkg.dependencies ?? {}).toEqual({});
    const peers = [...new Set(Object.values(OPTIONAL_PEER_IMPORTS).flat())];
    expect(Object.keys(pkg.peerDependencies ?? {}).sort()).toEqual(peers.sort());
    for (const peer of peers) expect(pkg.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
  });

  it("the main entry never loads an optional peer (mppx is only behind agent-payments-sdk/mpp and /mcp-mpp)", () => {
    const index = readFileSync(path.join(SDK_DIR, "index.ts"), "utf8");
    expect(index).not.toMatch(/from\s+"\.\/(mpp(-method)?|mcp-mpp(-rail)?)"/);
  });

  it("imports only its own files and node: built-ins", () => {
    let checked = 0;
    for (const file of sourceFiles(SDK_DIR)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms)) {
        const specifier = match[3];
        checked++;
        if (specifier.startsWith("node:")) continue;
        if (OPTIONAL_PEER_IMPORTS[path.relative(SDK_DIR, file)]?.some((peer) => specifier === peer || specifier.startsWith(`${peer}/`)))
          continue;
        expect(specifier.startsWith("."), `${path.relative(SDK_DIR, file)} imports ${specifier}`).toBe(true);
        const resolved = path.resolve(path.dirname(file), specifier);
        expect(resolved.startsWith(SDK_DIR), `${path.relative(SDK_DIR, file)} reaches outside packages/sdk/src: ${specifier}`).toBe(true);
      }
      expect(text, `${file} has a default export`).not.toMatch(/export\s+default/);
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("the index exposes the documented API", () => {
    for (const name of [
      "ServiceClient",
      "ServiceError",
      "verifyWebhook",
      "verifyReceipt",
      "verifyForwardedRequest",
      "signForwardedRequest",
      "signWebhookPayload",
      "generateTestHeader",
      "paywall",
      "paywallHttp",
      "serviceBackend",
      "serviceConsumedStore",
      "redisConsumedStore",
      "postgresConsumedStore",
      "inMemoryConsumedStore",
      "meteredPaywall",
      "serviceMeteringBackend",
    ]) {
      expect(typeof (sdk as Record<string, unknown>)[name], name).toBe("function");
    }
    expect("default" in sdk).toBe(false);
  });
});
