import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The SDK by its package name, from source (as tsconfig.json's paths): tests need no build of packages/sdk.
    alias: [
      { find: /^agent-payments-sdk$/, replacement: path.resolve(import.meta.dirname, "packages/sdk/src/index.ts") },
      { find: /^agent-payments-sdk\/mpp$/, replacement: path.resolve(import.meta.dirname, "packages/sdk/src/mpp.ts") },
      { find: /^agent-payments-sdk\/mcp-mpp$/, replacement: path.resolve(import.meta.dirname, "packages/sdk/src/mcp-mpp.ts") },
      { find: "@", replacement: path.resolve(import.meta.dirname) },
    ],
  },
  test: {
    // The packages' own tests (packages/*/test) run here too, so the suite covers them.
    include: ["tests/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: true,
    // A worker's test files share its modules (the service's, the protocol libraries', the helpers'): evaluated once per
    // worker, not once per file (import time 200-340 s summed over the suite). A file that needs the service's modules
    // under settings of its own imports fresh copies (tests/helpers/modules-with-env.ts).
    isolate: false,
    maxWorkers: 2,
    reporters: ["default"],
  },
});
