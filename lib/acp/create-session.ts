// POST /acp/checkout_sessions: a new cart of the key's merchant, priced from its catalog (lib/acp/view-session.ts).
import type { Db } from "../db";
import { Reply } from "../http/api";
import { createId } from "../ids";
import type { Scope } from "../scope";
import type { CreateSessionInput } from "./schemas";
import { SESSION_TTL_MS } from "./session-status";
import { priceCart, viewSession } from "./view-session";

export async function createSession(tx: Db, scope: Scope, input: CreateSessionInput) {
  const now = new Date();
  const session = await tx.acpCheckoutSession.create({
    data: {
      id: createId("acpCheckoutSession"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      status: "open",
      items: input.items,
      buyer: input.buyer ?? undefined,
      fulfillmentDetails: input.fulfillment_details ?? undefined,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      createdAt: now,
      updatedAt: now,
    },
  });
  return new Reply(201, await viewSession(tx, session, await priceCart(tx, scope, input.items)));
}
