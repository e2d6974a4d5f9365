// The four layers of lib/ (docs/architecture.md, "Layers"), top to bottom: every lib/ folder and every file
// directly in lib/ (by name, without its extension) is in exactly one. Imports point down, never up:
// a layer imports itself and the layers below it. One exception, the one edge of an adapter: an adapter
// composes the request pipeline, so it may import lib/http (and no other handler).
// Read by eslint.config.mjs (import/no-restricted-paths), .dependency-cruiser.mjs (npm run deps) and
// tests/unit/layering.test.ts (every unit in exactly one layer).

export const LAYERS = {
  // Serve a request, a page, the tick or the server's background work: the /v1 pipeline and its error table,
  // the dashboard's and the pay page's server code, sign-in, the API document, the tick, what a server
  // process starts with (background.ts; register-adapters.ts, which plugs the adapters into the domain's tables).
  handler: ["http", "dashboard", "auth", "pay", "openapi", "cron", "health", "background", "register-adapters"],
  // One folder per protocol or outside system: it translates the protocol's messages into domain verbs
  // through one edge (a composition of lib/http's pipeline) and never moves money itself.
  adapter: [
    "a2a",
    "acp",
    "agent-identity",
    "ap2",
    "card-networks",
    "integrations",
    "mastercard",
    "mcp",
    "mpp",
    "oauth",
    "paid-sale",
    "visa",
    "x402",
  ],
  // The service's own objects and rules, in one order among themselves (tests/unit/layering.test.ts): no HTTP.
  domain: [
    "accounts",
    "approvals",
    "checkouts",
    "customers",
    "disputes",
    "events",
    "idempotency",
    "ledger",
    "mail",
    "merchants",
    "meters",
    "orders",
    "paid-resources",
    "payments",
    "paywall",
    "products",
    "rails",
    "rate-limit",
    "receipts",
    "refunds",
    "shared-payment-tokens",
    "spend-limits",
    "spending-policies",
    "team",
    "two-factor",
    "webhooks",
  ],
  // The database client and what every module shares.
  foundation: [
    "canonical-json",
    "chains",
    "circuit-breaker",
    "countries",
    "db",
    "db-availability",
    "env",
    "errors",
    "global-singleton",
    "ids",
    "in-transaction",
    "own-key",
    "pagination",
    "payment-sources",
    "purge-batch",
    "scope",
    "shaped-statement",
    "side-pool",
    "single-use",
    "sql-model",
    "state-machine",
    "crypto",
    "generated",
    "money",
    "security",
    "validation",
  ],
};

/** Top to bottom. */
export const LAYER_ORDER = ["handler", "adapter", "domain", "foundation"];

/** The handler an adapter may import: the pipeline it composes. */
export const ADAPTER_EDGE = "http";

/** The layers above one, whose units it must not import (for an adapter: every handler but lib/http). */
export function forbiddenFor(layer) {
  const above = LAYER_ORDER.slice(0, LAYER_ORDER.indexOf(layer)).flatMap((name) => LAYERS[name]);
  return layer === "adapter" ? above.filter((unit) => unit !== ADAPTER_EDGE) : above;
}
