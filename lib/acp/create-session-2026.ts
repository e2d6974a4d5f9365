// POST /acp/checkout_sessions at API-Version 2026-01-30 or later: a new cart of the key's merchant, priced from its
// catalog in the currency the agent asked for, remembering the capabilities it declared (the answer shows their
// intersection with ours) and the discount codes it asked for (lib/acp/quote.ts).
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { Reply } from "../http/api";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { acpError } from "./http";
import { discountCodesOf, type CreateInput2026, type HandlerVersion } from "./schemas-2026";
import { SESSION_TTL_MS } from "./session-status";
import { assertDiscountsAllowed } from "./update-session-2026";
import { viewSession2026 } from "./view-session-2026";
import { priceCart } from "./view-session";

export async function createSession2026(tx: Db, scope: Scope, version: HandlerVersion, input: CreateInput2026) {
  const codes = discountCodesOf(input) ?? [];
  assertDiscountsAllowed(codes, input.capabilities);
  const items = input.line_items.map((line) => ({ id: line.id, quantity: line.quantity }));
  const cart = await priceCart(tx, scope, items);
  if (cart.currency !== input.currency.toLowerCase()) {
    throw acpError(
      "VALIDATION_ERROR",
      `This cart's items are priced in ${cart.currency.toUpperCase()}, not ${input.currency.toUpperCase()}.`,
      {
        type: "invalid_request",
        code: "invalid",
        param: "$.currency",
      },
    );
  }
  const now = new Date();
  const session = await tx.acpCheckoutSession.create({
    data: {
      id: createId("acpCheckoutSession"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      status: "open",
      items,
      buyer: input.buyer ?? undefined,
      fulfillmentDetails: input.fulfillment_details ?? undefined,
      capabilities: input.capabilities as Prisma.InputJsonValue,
      discountCodes: codes,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      createdAt: now,
      updatedAt: now,
    },
  });
  return new Reply(201, await viewSession2026(tx, session, version));
}
