// An agentic token typed into the hosted /pay card form (docs/cards.md "The hosted card form"): the token number as
// the card number and a fresh code as the CVC, as Agent Pay puts the code into ordinary card fields. The same
// checks as the signed path (token limits, merchant, single-use code) but no agent signature, so the
// PaymentIntent's `agent` says `verified: false`, and a checkout that requires a verified agent refuses it.
import { captureWithAgent, lockSellerCheckout } from "../card-networks/pay-with-agent";
import type { Db } from "../db";
import { checkTokenFor, lockToken, recordTokenUse } from "./pay-checkout";

/** Whether a card number is one of this mode's agentic tokens (the pay page then pays through it). */
export async function isAgenticTokenNumber(db: Db, livemode: boolean, number: string): Promise<boolean> {
  if (!/^522222\d{10}$/.test(number)) return false;
  return (await db.agenticToken.count({ where: { tokenNumber: number, livemode } })) > 0;
}

export async function payWithTokenNumber(
  tx: Db,
  livemode: boolean,
  checkoutId: string,
  number: string,
  code: string,
  billing: { billingCountry: string; billingName: string },
) {
  const found = await tx.agenticToken.findFirstOrThrow({ where: { tokenNumber: number, livemode }, select: { id: true } });
  const token = await lockToken(tx, livemode, found.id);
  const { checkout, seller } = await lockSellerCheckout(tx, livemode, checkoutId);
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
