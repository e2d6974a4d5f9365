// The merchant agent's card (GET /a2a/:merchantId/.well-known/agent-card.json; docs/a2a.md): A2A v1.0 over
// JSON-RPC at /a2a/:merchantId and over HTTP+JSON (REST, serve-rest.ts) under the same address, with the v0.3
// JSON-RPC interface there too (the SDK's compatibility layer), streaming and push notifications, the
// buyer's API key as a Bearer security scheme, and the a2a-x402 and AP2 extensions (neither required: a buyer
// activates the one it pays with).
import { AgentCard } from "@a2a-js/sdk";
import { env } from "../env";
import { A2A_VERSIONS, AP2_EXTENSION_URI, AP2_V02_EXTENSION_URI, X402_EXTENSION_URI } from "../integrations/a2a-versions";

export function agentUrl(merchantId: string, base = env.BASE_URL): string {
  return `${base}/a2a/${merchantId}`;
}

export function buildAgentCard(merchant: { id: string; name: string }, base = env.BASE_URL): AgentCard {
  const url = agentUrl(merchant.id, base);
  const modes = ["text/plain", "application/json"];
  return {
    name: `${merchant.name} (merchant agent)`,
    description: `Browse ${merchant.name}'s product catalog and buy from it. Pay with x402 (a2a-x402 extension) or with AP2 mandates and a shared payment token.`,
    // JSON-RPC first (the binding a client prefers when it speaks several), then HTTP+JSON, which is v1.0 only.
    supportedInterfaces: [
      ...A2A_VERSIONS.map((protocolVersion) => ({ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion })),
      { url, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
    ],
    provider: { url: base, organization: "Agent Payments Service" },
    version: "1.0.0",
    documentationUrl: `${base}/v1/integrations`,
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: false,
      extensions: [
        {
          uri: X402_EXTENSION_URI,
          description: "Pay for a purchase with x402 (exact scheme, USDC) inside the task.",
          required: false,
          params: undefined,
        },
        {
          uri: AP2_EXTENSION_URI,
          description:
            "AP2: the agent returns a CartMandate signed by the merchant (JWKS at /ap2/:merchantId/jwks.json) and settles a PaymentMandate.",
          required: false,
          params: { roles: ["merchant"] },
        },
        {
          uri: AP2_V02_EXTENSION_URI,
          description:
            "AP2 v0.2: the agent returns a checkout signed by the merchant (ap2.checkout) and settles SD-JWT Checkout and Payment Mandates (ap2.mandates.CheckoutMandateSdJwt, ap2.mandates.PaymentMandateSdJwt), answering signed receipts.",
          required: false,
          params: { roles: ["merchant"], version: "0.2" },
        },
      ],
    },
    securitySchemes: {
      apiKey: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            description:
              "The buyer's own API key of this service (sk_test_... or sk_live_...; a restricted rk_ key needs a2a write, and ap2 write to pay with AP2); its mode selects the catalog's mode.",
            scheme: "Bearer",
            bearerFormat: "API key",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    defaultInputModes: modes,
    defaultOutputModes: modes,
    skills: [
      {
        id: "catalog",
        name: "Browse and buy products",
        description:
          "Lists the merchant's active products, and sells them: send 'browse', or 'buy <prd_...> [quantity]' (or a data part { action: 'buy', items: [{ productId, quantity }] }). Payment: x402 or AP2.",
        tags: ["commerce", "catalog", "checkout", "x402", "ap2"],
        examples: ["browse", "buy prd_... 2", '{"action":"buy","items":[{"productId":"prd_...","quantity":1}]}'],
        inputModes: modes,
        outputModes: modes,
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

/** The card as JSON on the wire (ProtoJSON, as the SDK's own card handler serves it). */
export function agentCardJson(card: AgentCard): unknown {
  return AgentCard.toJSON(card);
}
