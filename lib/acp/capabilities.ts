// ACP capability negotiation (2026-01-30 and later; the capability negotiation, payment handler and extensions
// RFCs): what this service offers, and the intersection with what the agent declared, shown in every answer.
//  - payment: ONE handler, the shared payment token (an `spt_`, minted by delegate_payment or by the payer's
//    own key; docs/shared-payment-tokens.md). An agent that declared handlers by name gets it only when it
//    declared ACP's tokenized-card handler too; one that declared none gets it (nothing to intersect).
//  - interventions: 3-D Secure (lib/acp/three-ds.ts), intersected with the agent's `supported`.
//  - extensions: `discount`, active when the agent declared it (by name, with or without a version).
import { env } from "../env";
import type { AgentCapabilitiesInput, HandlerVersion } from "./schemas-2026";

/** The payment handler id an agent names in `payment_data.handler_id`. */
export const SPT_HANDLER_ID = "shared_payment_token";
/** The credential type its instrument carries. */
export const SPT_CREDENTIAL_TYPE = "spt";
const SPT_HANDLER_NAME = "dev.acp.tokenized.card";

const SUPPORTED_INTERVENTIONS = ["3ds"];
export const DISCOUNT_EXTENSION = "discount";

export interface NegotiatedCapabilities {
  payment: { handlers: Record<string, unknown>[] };
  interventions: { supported: string[]; required: string[]; enforcement: "conditional" };
  /** Absent when none is active: ACP's schema cannot tell an empty list of names from an empty list of declarations. */
  extensions?: { name: string; extends: string[]; schema: string; spec: string }[];
}

function sptHandler(version: HandlerVersion, merchantId: string): Record<string, unknown> {
  return {
    id: SPT_HANDLER_ID,
    name: SPT_HANDLER_NAME,
    ...(version === "2026-04-17" ? { display_name: "Card (shared payment token)", display_order: 0 } : {}),
    version: "2026-01-22",
    spec: "https://acp.dev/handlers/tokenized.card",
    requires_delegate_payment: true,
    requires_pci_compliance: false,
    psp: "service",
    config_schema: "https://acp.dev/schemas/handlers/tokenized.card/config.json",
    instrument_schemas: ["https://acp.dev/schemas/handlers/tokenized.card/instrument.json"],
    config: {
      merchant_id: merchantId,
      psp: "service",
      credential_type: SPT_CREDENTIAL_TYPE,
      delegate_payment_url: `${env.BASE_URL}/acp/agentic_commerce/delegate_payment`,
      accepted_brands: ["visa", "mastercard"],
      accepted_funding_types: ["credit", "debit", "prepaid"],
      supports_3ds: true,
    },
  };
}

/** Whether the agent can pay with the shared payment token handler (it declared no handlers, or that one). */
export function acceptsSptHandler(agent: AgentCapabilitiesInput | null): boolean {
  const declared = agent?.payment?.handlers;
  return !declared || declared.some((h) => h.name === SPT_HANDLER_NAME || h.id === SPT_HANDLER_ID);
}

export function discountExtensionActive(agent: AgentCapabilitiesInput | null): boolean {
  return (agent?.extensions ?? []).some((ext) => (typeof ext === "string" ? ext : ext.name).split("@")[0] === DISCOUNT_EXTENSION);
}

export function negotiate(agent: AgentCapabilitiesInput | null, version: HandlerVersion, merchantId: string): NegotiatedCapabilities {
  const agentInterventions = agent?.interventions?.supported ?? [];
  return {
    payment: { handlers: acceptsSptHandler(agent) ? [sptHandler(version, merchantId)] : [] },
    interventions: {
      supported: SUPPORTED_INTERVENTIONS.filter((i) => agentInterventions.includes(i)),
      required: [],
      enforcement: "conditional",
    },
    ...(discountExtensionActive(agent)
      ? {
          extensions: [
            {
              name: DISCOUNT_EXTENSION,
              extends: [
                "$.CheckoutSessionCreateRequest.discounts",
                "$.CheckoutSessionUpdateRequest.discounts",
                "$.CheckoutSession.discounts",
              ],
              schema: `https://agenticcommerce.dev/schemas/discount/${version}.json`,
              spec: "https://agenticcommerce.dev/specs/extensions/discount",
            },
          ],
        }
      : {}),
  };
}
