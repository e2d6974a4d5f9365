// POST /acp/checkout_sessions/:id at API-Version 2026-01-30 or later: replaces the cart's line items, buyer,
// fulfillment details, chosen fulfillment options or discount codes of an open, unexpired session and answers its
// new state. A chosen option must be one the session offers (digital delivery for lines that do not ship, the
// merchant's shipping for lines that do) and name this cart's lines; discount codes need the discount extension.
import type { Db } from "../db";
import type { Scope } from "../scope";
import { discountExtensionActive } from "./capabilities";
import { acpError } from "./http";
import { lockSession } from "./lock-session";
import { quoteSession, SHIPPING_OPTION_ID, type Quote } from "./quote";
import {
  discountCodesOf,
  type AgentCapabilitiesInput,
  type HandlerVersion,
  type SelectedOption2026,
  type UpdateInput2026,
} from "./schemas-2026";
import { assertChangeable } from "./session-status";
import { viewSession2026 } from "./view-session-2026";
import { DIGITAL_OPTION_ID } from "./view-session";

export async function updateSession2026(tx: Db, scope: Scope, version: HandlerVersion, id: string, input: UpdateInput2026) {
  const session = await lockSession(tx, scope, id);
  assertChangeable(session);
  const codes = discountCodesOf(input);
  if (codes) assertDiscountsAllowed(codes, session.capabilities as AgentCapabilitiesInput | null);
  const changes = {
    ...(input.line_items ? { items: input.line_items.map((line) => ({ id: line.id, quantity: line.quantity })) } : {}),
    ...(input.buyer ? { buyer: input.buyer } : {}),
    ...(input.fulfillment_details ? { fulfillmentDetails: input.fulfillment_details } : {}),
    ...(codes ? { discountCodes: codes } : {}),
  };
  if (input.selected_fulfillment_options) {
    const offered = await quoteSession(tx, { ...session, ...changes });
    input.selected_fulfillment_options.forEach((selected, index) =>
      checkSelected(selected, offered, `$.selected_fulfillment_options[${index}]`),
    );
  }
  const updated = await tx.acpCheckoutSession.update({
    where: { id },
    data: {
      ...changes,
      // Stored as 2026-01-16 nests them: { type, <type>: { option_id, item_ids } }.
      ...(input.selected_fulfillment_options
        ? {
            selectedFulfillmentOptions: input.selected_fulfillment_options.map((s) => ({
              type: s.type,
              [s.type]: { option_id: s.option_id, item_ids: s.item_ids },
            })),
          }
        : {}),
      updatedAt: new Date(),
    },
  });
  return viewSession2026(tx, updated, version);
}

function checkSelected(selected: SelectedOption2026, quote: Quote, param: string): void {
  const offered =
    (selected.type === "digital" && selected.option_id === DIGITAL_OPTION_ID && quote.offersDigital) ||
    (selected.type === "shipping" && selected.option_id === SHIPPING_OPTION_ID && quote.shippingRate !== null);
  if (!offered)
    throw invalidParam(`This session offers no ${selected.type} option ${selected.option_id.slice(0, 40)}.`, `${param}.option_id`);
  const lines = new Set(quote.lines.filter((l) => l.ships === (selected.type === "shipping")).map((l) => l.id));
  const stranger = selected.item_ids.find((itemId) => !lines.has(itemId));
  if (stranger !== undefined)
    throw invalidParam(`Line ${stranger.slice(0, 40)} of this cart cannot take the ${selected.type} option.`, `${param}.item_ids`);
}

/** Discount codes need the discount extension negotiated (declared in the agent's capabilities.extensions). */
export function assertDiscountsAllowed(codes: string[], agent: AgentCapabilitiesInput | null): void {
  if (codes.length && !discountExtensionActive(agent)) {
    throw invalidParam('Discount codes need the "discount" extension: declare it in capabilities.extensions.', "$.discounts");
  }
}

export function invalidParam(message: string, param: string) {
  return acpError("VALIDATION_ERROR", message, { type: "invalid_request", code: "invalid", param });
}
