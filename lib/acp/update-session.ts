// POST /acp/checkout_sessions/:id: replaces the cart's items, buyer, fulfillment details or selected
// fulfillment options of an open session and answers its new authoritative state (2026-01-16; 2026-01-30 and later:
// lib/acp/update-session-2026.ts). A completed, canceled or expired session cannot change (409 invalid_request
// `checkout_session_<status>`).
import type { Db } from "../db";
import type { Scope } from "../scope";
import { acpError } from "./http";
import { lockSession } from "./lock-session";
import type { UpdateSessionInput } from "./schemas";
import { assertChangeable } from "./session-status";
import { DIGITAL_OPTION_ID, viewSession, type CartItem } from "./view-session";

export async function updateSession(tx: Db, scope: Scope, id: string, input: UpdateSessionInput) {
  const session = await lockSession(tx, scope, id);
  assertChangeable(session);
  const items = input.items ?? (session.items as unknown as CartItem[]);
  const lineIds = new Set(items.map((_, index) => `li_${index + 1}`));
  input.selected_fulfillment_options?.forEach((selected, index) => {
    const chosen = selected.type === "digital" ? selected.digital : selected.shipping;
    const param = `$.selected_fulfillment_options[${index}]`;
    if (selected.type !== "digital" || chosen.option_id !== DIGITAL_OPTION_ID) {
      throw acpError("VALIDATION_ERROR", `Unknown fulfillment option; this merchant offers only "${DIGITAL_OPTION_ID}" (digital).`, {
        type: "invalid_request",
        code: "invalid",
        param,
      });
    }
    const unknown = chosen.item_ids.find((itemId) => !lineIds.has(itemId));
    if (unknown !== undefined)
      throw acpError("VALIDATION_ERROR", `No line item ${unknown.slice(0, 40)} in this cart.`, {
        type: "invalid_request",
        code: "invalid",
        param: `${param}.digital.item_ids`,
      });
  });
  const updated = await tx.acpCheckoutSession.update({
    where: { id },
    data: {
      ...(input.items ? { items: input.items } : {}),
      ...(input.buyer ? { buyer: input.buyer } : {}),
      ...(input.fulfillment_details ? { fulfillmentDetails: input.fulfillment_details } : {}),
      ...(input.selected_fulfillment_options ? { selectedFulfillmentOptions: input.selected_fulfillment_options } : {}),
      updatedAt: new Date(),
    },
  });
  return viewSession(tx, updated);
}
