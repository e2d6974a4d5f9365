// What this deployment speaks (GET /v1/integrations, docs/oauth-and-mcp.md): one entry per protocol or surface that WORKS here now, with its versions and addresses.
//
// How a protocol joins: when its routes land, add its entry to INTEGRATIONS below (a function of the
// base URL), in the same commit as the routes. tests/unit/integrations-registry.test.ts fails when an
// entry names an address no route under app/ serves, so the list cannot promise what is not there.
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { SUPPORTED_API_VERSIONS } from "../acp/schemas";
import { env } from "../env";
import { SCOPES } from "../oauth/config";
import { liveNetworks } from "../chains/live-networks";
import { A2A_VERSIONS, AP2_EXTENSION_URI, AP2_V02_EXTENSION_URI, X402_EXTENSION_URI } from "./a2a-versions";

export interface Integration {
  id: string;
  versions: string[];
  /** Addresses on this deployment (absolute URLs), by role. */
  endpoints: Record<string, string>;
  [detail: string]: unknown;
}

type Entry = (base: string) => Integration;

const mcp: Entry = (base) => ({
  id: "mcp",
  versions: [...SUPPORTED_PROTOCOL_VERSIONS],
  transport: "streamable-http",
  stateless: true,
  auth: ["oauth2.1", "api_key"],
  scopes: [...SCOPES],
  endpoints: {
    mcp: `${base}/mcp`,
    protectedResourceMetadata: `${base}/.well-known/oauth-protected-resource/mcp`,
    authorizationServerMetadata: `${base}/.well-known/oauth-authorization-server`,
    register: `${base}/oauth/register`,
    authorize: `${base}/oauth/authorize`,
    token: `${base}/oauth/token`,
    revoke: `${base}/oauth/revoke`,
  },
});

// x402 (docs/x402.md): the facilitator for merchants' own servers (merchant key) and the hosted paid
// resources (public, the payment is the credential), exact scheme on Base Sepolia in test mode, and in live
// mode on the chains the deployment configured (lib/chains/live-networks.ts).
const x402: Entry = (base) => ({
  id: "x402",
  versions: ["2", "1"],
  schemes: ["exact"],
  // Live: exactly the chains this deployment settles on (X402_RPC_URLS), none when it has none.
  networks: { test: "eip155:84532", live: liveNetworks().map((network) => network.caip2) },
  endpoints: {
    verify: `${base}/x402/verify`,
    settle: `${base}/x402/settle`,
    supported: `${base}/x402/supported`,
    resource: `${base}/x402/r/{id}`,
    discovery: `${base}/x402/discovery/resources`,
  },
});

// MPP (docs/mpp.md): the `Payment` HTTP authentication scheme with the service's own method `service`
// (intent charge, a shared payment token as the credential), as mppx 0.11 speaks it.
const mpp: Entry = (base) => ({
  id: "mpp",
  versions: ["mppx-0.11"],
  methods: [{ name: "service", intents: ["charge"] }],
  endpoints: { verify: `${base}/mpp/verify`, resource: `${base}/mpp/r/{id}`, discovery: `${base}/mpp/openapi.json` },
});

// ACP (docs/acp.md): the Agentic Commerce Protocol's checkout API and delegated payment (merchant key), the
// order permalink pages, and ACP order webhooks (a webhook endpoint with format "acp").
const acp: Entry = (base) => ({
  id: "acp",
  versions: [...SUPPORTED_API_VERSIONS],
  paymentProviders: ["service", "stripe"],
  endpoints: {
    checkoutSessions: `${base}/acp/checkout_sessions`,
    checkoutSession: `${base}/acp/checkout_sessions/{id}`,
    complete: `${base}/acp/checkout_sessions/{id}/complete`,
    cancel: `${base}/acp/checkout_sessions/{id}/cancel`,
    delegatePayment: `${base}/acp/agentic_commerce/delegate_payment`,
    orderPermalink: `${base}/acp/orders/{id}`,
  },
});

// A2A (docs/a2a.md): a merchant agent per merchant, A2A v1.0 over JSON-RPC as @a2a-js/sdk 1.3 speaks it (and
// v0.3 through its compatibility layer), the buyer's API key as Bearer; payment with the a2a-x402 extension or AP2.
const a2a: Entry = (base) => ({
  id: "a2a",
  versions: [...A2A_VERSIONS],
  binding: "JSONRPC",
  auth: ["api_key"],
  skills: ["catalog"],
  extensions: [X402_EXTENSION_URI, AP2_EXTENSION_URI, AP2_V02_EXTENSION_URI],
  endpoints: { agent: `${base}/a2a/{merchantId}`, agentCard: `${base}/a2a/{merchantId}/.well-known/agent-card.json` },
});

// AP2 (docs/a2a.md): CartMandates signed by the merchant (ES256 JWT with cart_hash, jti, exp; JWKS per merchant),
// PaymentMandates paid with a shared payment token (spt_), over the A2A merchant agent.
const ap2: Entry = (base) => ({
  id: "ap2",
  versions: ["0.1", "0.2"],
  extension: AP2_EXTENSION_URI,
  /** v0.2 over A2A (its SD-JWT mandates; also over the /ap2 JSON endpoints). */
  extensionV02: AP2_V02_EXTENSION_URI,
  roles: ["merchant", "payment-processor"],
  mandates: ["CartMandate", "PaymentMandate"],
  paymentMethods: [`${base}/v1/shared_payment_tokens`],
  signing: { alg: "ES256", claims: ["iss", "sub", "aud", "iat", "exp", "jti", "cart_hash"] },
  endpoints: { agent: `${base}/a2a/{merchantId}`, jwks: `${base}/ap2/{merchantId}/jwks.json`, rotateKey: `${base}/ap2/keys/rotate` },
});

const webhooks: Entry = (base) => ({
  id: "webhooks",
  versions: ["v1"],
  signature: "stripe-v1",
  signatureHeader: "X-Service-Signature",
  endpoints: { webhookEndpoints: `${base}/v1/webhook-endpoints` },
});

/** Every working integration, in the order listed. Add a protocol's entry here when its routes land. */
// Mastercard Agent Pay (docs/cards.md): registered agents verified with Web Bot Auth, agentic tokens and their
// single-use codes, signed payment of checkouts; the network's key directory is public.
const mastercard: Entry = (base) => ({
  id: "mastercard",
  versions: ["agent-pay-test"],
  signature: { profile: "web-bot-auth", tag: "web-bot-auth", rfc: "9421", algorithms: ["ed25519"], maxWindowSeconds: 480 },
  endpoints: {
    agents: `${base}/mastercard/agents`,
    directory: `${base}/mastercard/.well-known/http-message-signatures-directory`,
    verify: `${base}/mastercard/verify`,
    agenticTokens: `${base}/mastercard/agentic_tokens`,
    dtvc: `${base}/mastercard/agentic_tokens/{id}/dtvc`,
    pay: `${base}/mastercard/checkouts/{id}/pay`,
  },
});

// Visa (docs/cards.md): Trusted Agent Protocol signatures (agent-browser-auth / agent-payer-auth) over the
// service's own key store; Intelligent Commerce-style purchase instructions and single-use credentials.
const visa: Entry = (base) => ({
  id: "visa",
  versions: ["tap-test"],
  signature: {
    profile: "trusted-agent-protocol",
    tags: ["agent-browser-auth", "agent-payer-auth"],
    rfc: "9421",
    algorithms: ["ed25519"],
    maxWindowSeconds: 480,
  },
  endpoints: {
    agents: `${base}/visa/agents`,
    jwks: `${base}/visa/.well-known/jwks`,
    keys: `${base}/visa/keys`,
    verify: `${base}/visa/verify`,
    instructions: `${base}/visa/instructions`,
    credentials: `${base}/visa/instructions/{id}/credentials`,
    browse: `${base}/visa/checkouts/{id}`,
    pay: `${base}/visa/checkouts/{id}/pay`,
  },
});

export const INTEGRATIONS: Entry[] = [x402, mpp, acp, a2a, ap2, visa, mastercard, mcp, webhooks];

export function listIntegrations(base = env.BASE_URL) {
  return { object: "list" as const, data: INTEGRATIONS.map((entry) => entry(base)) };
}
