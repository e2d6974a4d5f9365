// POST /acp/checkout_sessions/:id/complete at API-Version 2026-01-30 or later: pays the quote (lib/acp/quote.ts)
// with the payment handler this service offers, the shared payment token: `payment_data { handler_id:
// "shared_payment_token", instrument { credential { type: "spt", token: "spt_..." } } }`. Money moves only through
// the charge engine (lib/acp/pay-session.ts); the completed session keeps the quote it charged.
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { acceptsSptHandler, SPT_CREDENTIAL_TYPE, SPT_HANDLER_ID } from "./capabilities";
import { acpError } from "./http";
import { lockSession } from "./lock-session";
import { paySession } from "./pay-session";
import { quoteSession } from "./quote";
import type { AgentCapabilitiesInput, CompleteInput2026, HandlerVersion } from "./schemas-2026";
import { assertChangeable } from "./session-status";
import { invalidParam } from "./update-session-2026";
import { viewSession2026 } from "./view-session-2026";

export async function completeSession2026(tx: Db, scope: Scope, version: HandlerVersion, id: string, input: CompleteInput2026) {
  const session = await lockSession(tx, scope, id);
  assertChangeable(session);
  const { handler_id, instrument } = input.payment_data;
  if (handler_id !== SPT_HANDLER_ID || !acceptsSptHandler(session.capabilities as AgentCapabilitiesInput | null)) {
    throw invalidParam(`Pay with the payment handler "${SPT_HANDLER_ID}", the one this session offers.`, "$.payment_data.handler_id");
  }
  if (instrument.credential.type !== SPT_CREDENTIAL_TYPE) {
    throw invalidParam(
      `The ${SPT_HANDLER_ID} handler takes a credential of type "${SPT_CREDENTIAL_TYPE}".`,
      "$.payment_data.instrument.credential.type",
    );
  }
  const quote = await quoteSession(tx, session);
  const problem = quote.messages.find((m) => m.type === "error");
  if (problem) {
    throw acpError("VALIDATION_ERROR", `The cart is not ready for payment: ${problem.content}`, {
      type: "invalid_request",
      code: problem.code ?? "invalid",
      ...(problem.param ? { param: problem.param } : {}),
    });
  }
  const paid = await paySession(tx, scope, session, {
    token: instrument.credential.token,
    tokenParam: "$.payment_data.instrument.credential.token",
    sale: { items: quote.sale, currency: quote.currency },
    authenticationResult: input.authentication_result,
    changes: { ...(input.buyer ? { buyer: input.buyer } : {}), completedQuote: JSON.parse(JSON.stringify(quote)) as Prisma.InputJsonValue },
  });
  return viewSession2026(tx, paid, version);
}
