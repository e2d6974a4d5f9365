// The A2A versions and extensions this deployment speaks: declared in each merchant agent's card
// (lib/a2a/card.ts) and listed by GET /v1/integrations (registry.ts). They sit here, below the agent, so that
// the list reads them without importing the agent (and everything the agent pays through).

export const A2A_VERSIONS = ["1.0", "0.3"] as const;

/** a2a-x402 v0.2 (google-agentic-commerce/a2a-x402 spec/v0.2/spec.md): activated with the A2A-Extensions header. */
export const X402_EXTENSION_URI = "https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2";
/** AP2 v0.1 on A2A (https://github.com/google-agentic-commerce/AP2/blob/main/docs/a2a-extension.md). */
export const AP2_EXTENSION_URI = "https://github.com/google-agentic-commerce/ap2/tree/v0.1";
/**
 * AP2 v0.2 on A2A: v0.2 publishes no A2A extension document; its reference agents (the AP2 repository's samples,
 * common/a2a_extension_utils.py) declare and require this URI.
 */
export const AP2_V02_EXTENSION_URI = "https://github.com/google-agentic-commerce/ap2/v1";
