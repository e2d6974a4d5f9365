// The SDK's MPP-over-MCP entry ("agent-payments-sdk/mcp-mpp"): paywall({ ..., mpp: mppOverMcp({ baseUrl, apiKey,
// secretKey }) }) also takes MPP over MCP (mcp-mpp-rail.ts). Its own entry because it loads mppx's server
// (mppx/server), which neither the main entry nor the `service` method entry (mpp.ts, which the service imports)
// needs.
export { mppOverMcp } from "./mcp-mpp-rail";
export type { MppOverMcpOptions } from "./mcp-mpp-rail";
