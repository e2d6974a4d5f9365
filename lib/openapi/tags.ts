// The document's tags, in the order the reference shows them: the /v1 resources, then each protocol's paths
// (each under its own tag).
// Every operation's tag is one of these (buildOpenApiDocument refuses another).
export const TAGS: { name: string; description?: string }[] = [
  { name: "Meta" },
  { name: "Customers" },
  { name: "Products" },
  { name: "Checkouts" },
  { name: "Orders" },
  { name: "PaymentIntents" },
  { name: "Receipts", description: "Signed receipts of captured PaymentIntents and the keys that verify them (docs/receipts.md)" },
  { name: "Refunds" },
  { name: "Disputes", description: "Disputes of captured payments, their evidence and outcome (docs/disputes.md)" },
  { name: "Balance" },
  { name: "Events" },
  { name: "Webhooks" },
  { name: "Shared payment tokens" },
  {
    name: "Spending agents",
    description: "The payer's spending agents and their policies, enforced at every charge (docs/spending-policies.md)",
  },
  {
    name: "Approval requests",
    description: "Charges above a spending policy's approval threshold, waiting for the payer to approve or decline (docs/approvals.md)",
  },
  { name: "Paywall" },
  { name: "Paid resources" },
  { name: "Meters" },
  {
    name: "x402",
    description: "The x402 facilitator (verify, settle, supported) and the hosted paid resources sold over x402 (docs/x402.md)",
  },
  { name: "MPP", description: 'The Machine Payments Protocol: the merchant\'s verify and the hosted paid resources (docs/x402.md, "MPP")' },
  {
    name: "ACP",
    description: "The Agentic Commerce Protocol's checkout sessions and delegated payment; ACP's own error shape (docs/acp.md)",
  },
  { name: "A2A", description: "The merchant agents' cards and JSON-RPC endpoint (docs/a2a.md)" },
  { name: "AP2", description: "The merchants' CartMandate signing keys (docs/a2a.md)" },
  { name: "Visa", description: "Visa's agent keys, purchase instructions, credentials and signed checkout payments (docs/cards.md)" },
  { name: "Mastercard", description: "Mastercard's agent keys, agentic tokens, codes and signed checkout payments (docs/cards.md)" },
  { name: "OAuth", description: "The authorization server of /mcp (docs/oauth-and-mcp.md)" },
  { name: "MCP", description: "The service's own MCP server, Streamable HTTP (docs/oauth-and-mcp.md)" },
];
