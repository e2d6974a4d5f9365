// An agentic token typed into the hosted /pay card form (docs/cards.md "The hosted card form"): the token number as
// the card number and a fresh code as the CVC, as Agent Pay puts the code into ordinary card fields. The same
// checks as the signed path (token limits, merchant, single-use code) but no agent signature, so the
// PaymentIntent's `agent` says `verified: false`, and a checkout that requires a verified agent refuses it.
//
// The form is public, so it must not tell whether a token exists: every number of the tokens' shape takes this
// path, the checkout is locked (and a closed one refused) before any token is looked up, and an unknown number
// is refused like a known token with a wrong code (lib/pay/pay-checkout.ts gives all of them one answer).
import { captureWithAgent, lockSellerCheckout } from "../card-networks/pay-with-agent";
import type { Db } from "../db";
import { DomainError } from "../errors";
import { checkTokenFor, lockToken, recordTokenUse } from "./pay-checkout";

/** Whether a card number has the shape of an agentic token number (issued as 522222 + 10 digits, Luhn-valid). */
export function isAgenticTokenNumber(number: string): boolean {
  return /^522222\d{10}$/.test(number);
}

export async function payWithTokenNumber(
  tx: Db,
  livemode: boolean,
  checkoutId: string,
  number: string,
  code: string,
  billing: { billingCountry: string; billingName: string },
) {
  const { checkout, seller } = await lockSellerCheckout(tx, livemode, checkoutId);
  const found = await tx.agenticToken.findFirst({ where: { tokenNumber: number, livemode }, select: { id: true } });
  if (!found)
    throw new DomainError("PAYMENT_DECLINED", "No agentic token has this number; nothing was charged.", { reason: "token_unknown" });
  const token = await lockToken(tx, livemode, found.id);
  const codeId = await checkTokenFor(tx, token, seller.merchantId, checkout.amount, checkout.currency, code);
  const n = token.chargeAttempts + 1;
  await tx.$executeRaw`UPDATE agentic_tokens SET charge_attempts = ${n} WHERE id = ${token.id}`;
  const order = await captureWithAgent(tx, {
    seller,
    checkout,
    payer: { merchantId: token.payerMerchantId, livemode },
    paymentMethod: token.paymentMethod,
    billing,
    chargeKey: `${token.id}:${n}:${checkout.amount}`,
    source: "mastercard",
    agent: {
      network: "mastercard",
      protocol: "card-form",
      agentKeyId: token.agentKeyId,
      keyid: null,
      tag: null,
      signatureAgent: null,
      nonce: null,
      credentialId: token.id,
      verified: false,
      verifiedAt: null,
    },
  });
  await recordTokenUse(tx, token, checkout.amount, codeId, order.paymentIntentId);
  return order;
}
