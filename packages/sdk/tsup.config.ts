// Builds the package: the library (the main entry, the MPP entry and the MPP-over-MCP entry) to ESM + CJS with .d.ts, and the
// `agent-payments-listen` bin to ESM (it uses top-level await). Node built-ins and mppx (an optional peer)
// stay imports. `npm run build` empties dist/ first (the two builds run at once, so neither cleans).
import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: { index: "src/index.ts", mpp: "src/mpp.ts", "mcp-mpp": "src/mcp-mpp.ts" },
    format: ["esm", "cjs"],
    dts: true,
    target: "node20",
    platform: "node",
  },
  {
    entry: { "cli/listen": "src/cli/listen.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
  },
]);
