// Visa TAP: an agent browses a merchant's checkout (tag agent-browser-auth) and pays it (tag agent-payer-auth)
// with a single-use credential in the body's agenticPaymentContainer, signed by the same key and nonce (docs/cards.md
// "Paying a checkout (Visa)"). One transaction: the message signature (nonce spent), the container's signature,
// the credential's single-use lock (lib/single-use.ts: in use elsewhere -> 409 at once) and its row, its scope and the instruction's
// mandate, then captureCheckout through lib/card-networks/pay-with-agent.ts and the credential marked used.
import { requireVerifiedAgent } from "../agent-identity/signed-request";
import { captureWithAgent, lockSellerCheckout } from "../card-networks/pay-with-agent";
import { CHECKOUTS_NOW } from "../checkouts/seen-now";
import type { CheckoutFields } from "../checkouts/serialize";
import { Prisma } from "../generated/prisma/client";
import { declined } from "../card-networks/declines";
import type { Db } from "../db";
import { BusyError, NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { lockSingleUse } from "../single-use";
import { mandateFor } from "./instructions";
import { checkPaymentContainer } from "../agent-identity/payment-container";
import type { VisaPayInput } from "./schemas";

/** What a browsing agent may read of a checkout: its terms. */
export async function browseCheckout(db: Db, req: Request, payer: Scope, id: string) {
  await requireVerifiedAgent(db, req, undefined, payer, "visa", "browse");
  // Its status as seen now (an overdue open checkout is expired; checkouts/seen-now.ts).
  const [checkout] = await db.$queryRaw<(CheckoutFields & { merchantId: string })[]>`
    SELECT ${Prisma.raw(CHECKOUTS_NOW.columns)}, merchant_id AS "merchantId" FROM checkouts WHERE id = ${id} AND livemode = ${payer.livemode}`;
  if (!checkout) throw new NotFoundError("checkout", id);
  return {
    id: checkout.id,
    object: "checkout_terms" as const,
    merchantId: checkout.merchantId,
    status: checkout.status,
    amount: checkout.amount,
    currency: checkout.currency,
    items: checkout.items,
    description: checkout.description,
    requiresVerifiedAgent: checkout.requireVerifiedAgent,
    expiresAt: checkout.expiresAt.toISOString(),
    livemode: checkout.livemode,
  };
}

export async function payCheckoutWithCredential(
  tx: Db,
  req: Request,
  rawBody: string | undefined,
  payer: Scope,
  checkoutId: string,
  input: VisaPayInput,
) {
  const agent = await requireVerifiedAgent(tx, req, rawBody, payer, "visa", "pay");
  const credentialId = checkPaymentContainer(input.agenticPaymentContainer, agent);

  if (!(await lockSingleUse(tx, "visa", `${payer.livemode ? "live" : "test"}:${credentialId}`))) {
    const exists = await tx.visaCredential.count({
      where: { id: credentialId, livemode: payer.livemode, payerMerchantId: payer.merchantId },
    });
    if (exists)
      throw new BusyError(`Credential ${credentialId} is being used by another payment; retry shortly.`, { reason: "credential_in_use" });
    throw new NotFoundError("visa_credential", credentialId);
  }
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM visa_credentials WHERE id = ${credentialId} AND livemode = ${payer.livemode} AND payer_merchant_id = ${payer.merchantId} FOR UPDATE`;
  if (!rows[0]) throw new NotFoundError("visa_credential", credentialId);
  const credential = await tx.visaCredential.findUniqueOrThrow({ where: { id: credentialId } });
  const instruction = await tx.visaInstruction.findUniqueOrThrow({ where: { id: credential.instructionId } });
  if (instruction.agentKeyId !== agent.key?.id)
    throw declined("agent_key_mismatch", `Credential ${credentialId} was drawn for another agent key.`);
  if (credential.status !== "active") throw declined("credential_used", `Credential ${credentialId} was already used.`);
  if (credential.expiresAt.getTime() <= Date.now()) throw declined("credential_expired", `Credential ${credentialId} has expired.`);
  if (instruction.status !== "active") throw declined("instruction_not_active", `Instruction ${instruction.id} is ${instruction.status}.`);

  const { checkout, seller } = await lockSellerCheckout(tx, payer.livemode, checkoutId);
  if (credential.merchantId !== seller.merchantId)
    throw declined("credential_merchant_mismatch", `Credential ${credentialId} is for another merchant.`);
  if (checkout.currency !== credential.currency || checkout.amount > credential.amount) {
    throw declined(
      "credential_amount_exceeded",
      `The checkout (${checkout.amount} ${checkout.currency}) is over the credential's ${credential.amount} ${credential.currency}.`,
    );
  }
  mandateFor(instruction, seller.merchantId, checkout.amount, checkout.currency); // still within the mandate now

  const n = credential.chargeAttempts + 1;
  await tx.$executeRaw`UPDATE visa_credentials SET charge_attempts = ${n} WHERE id = ${credentialId}`;
  const order = await captureWithAgent(tx, {
    seller,
    checkout,
    payer,
    paymentMethod: instruction.paymentMethod,
    chargeKey: `${credentialId}:${n}:${checkout.amount}`,
    source: "visa",
    spending: instruction.spendingAgentId ? { spendingAgentId: instruction.spendingAgentId, protocol: "visa" } : undefined,
    agent: {
      network: "visa",
      protocol: "tap",
      agentKeyId: agent.key?.id ?? null,
      keyid: agent.keyid,
      tag: agent.tag,
      signatureAgent: null,
      nonce: agent.nonce,
      credentialId,
      verified: true,
      verifiedAt: new Date().toISOString(),
    },
  });
  await tx.$executeRaw`UPDATE visa_credentials SET status = 'used', used_at = now(), payment_intent_id = ${order.paymentIntentId} WHERE id = ${credentialId}`;
  return order;
}
