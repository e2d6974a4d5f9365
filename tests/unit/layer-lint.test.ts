// The layer rule of lint fails on an upward import (docs/architecture.md, "Layers"): ESLint's own Node API
// lints source text as if it were a file in lib/ (lintText with a filePath: nothing is written to the tree),
// with the repository's eslint.config.mjs, and the boundary rule must name the import.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "../..");
let eslint: ESLint;

/** The layer-rule messages ESLint gives a file at `file` (relative to the root) that imports `specifier`. */
async function layerErrors(file: string, specifier: string): Promise<string[]> {
  const code = `import * as imported from "${specifier}";\n\nexport const used = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === "import/no-restricted-paths").map((m) => m.message);
}

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
}, 60_000);

describe("the layer rule of lint (eslint.config.mjs, scripts/layers.mjs)", () => {
  it("fails a domain folder that imports a request handler or a protocol adapter", async () => {
    const intoHttp = await layerErrors("lib/orders/upward-fixture.ts", "../http/api");
    expect(intoHttp).toHaveLength(1);
    expect(intoHttp[0]).toMatch(/Domain code is below the protocol adapters and the request handlers/);
    expect(await layerErrors("lib/webhooks/upward-fixture.ts", "../acp/order-webhook")).toHaveLength(1);
    expect(await layerErrors("lib/paywall/upward-fixture.ts", "@/lib/pay/card")).toHaveLength(1);
  }, 60_000);

  it("fails the foundation importing anything above it", async () => {
    expect(await layerErrors("lib/validation/upward-fixture.ts", "../paywall/schemas")).toHaveLength(1);
    expect(await layerErrors("lib/db.ts", "./orders/schemas")).toHaveLength(1);
  }, 60_000);

  it("fails an adapter importing a handler other than the pipeline it composes", async () => {
    expect(await layerErrors("lib/oauth/upward-fixture.ts", "../dashboard/session")).toHaveLength(1);
    expect(await layerErrors("lib/oauth/upward-fixture.ts", "../http/pipeline")).toEqual([]);
  }, 60_000);

  it("passes imports that point down", async () => {
    expect(await layerErrors("lib/orders/downward-fixture.ts", "../events/emit-event")).toEqual([]);
    expect(await layerErrors("lib/acp/downward-fixture.ts", "../checkouts/capture-checkout")).toEqual([]);
    expect(await layerErrors("lib/dashboard/downward-fixture.ts", "../oauth/config")).toEqual([]);
  }, 60_000);
});
