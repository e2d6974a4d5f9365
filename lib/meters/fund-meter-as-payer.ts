// POST /v1/meters/:id/fund: a payer funds another merchant's prepaid meter with its OWN key (the agent that
// got the insufficient_budget gate cannot use the merchant's top-up). Same rule as POST /v1/paywall/pay for
// the payment method (a test card, or a wallet of the payer's own customers), and the same two-step funding
// as a top-up (fund-meter.ts), so charged once and crash-safe: the request key, a digest of the payer's API
// key and Idempotency-Key under its own prefix, finds the same funding again on a retry.
// The answer is the funding only: the payer never sees the merchant's meter (customer, budget, metadata).
// It may pay as one of the payer's spending agents (docs/spending-policies.md): the body's `spendingAgentId`, or else
// the agent the payer's API key names; its policy is checked when the funding is charged (fund-meter.ts).
import type { z } from "zod";
import { checkCapturable } from "../checkouts/check-capturable";
import { transaction, type Db } from "../db";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import type { Meter, PaymentIntent } from "../generated/prisma/client";
import type { Caller } from "../scope";
import { assertSameRequest, findOrOpenByRequestKey, requestDigest } from "../idempotency/request-key";
import { chargedMethodOf, chargeFunding, fundingAnswer, openFunding, type FundingHooks } from "./fund-meter";
import type { PaymentIntentStatus } from "../payments/transitions";
import { requireOwnSpendingAgent } from "../spending-policies/agents";
import type { FundMeterInput, MeterFundingObject } from "./schemas";

export async function fundMeterAsPayer(
  db: Db,
  payer: Caller,
  meterId: string,
  input: FundMeterInput,
  idempotencyKey: string | null,
  hooks: FundingHooks = {},
) {
  const requestKey = requestDigest(payer.apiKeyId, idempotencyKey, "meters.fund");
  const { funding, created } = await transaction(async (tx) => {
    const meter = await prepaidMeterInMode(tx, meterId, payer.livemode); // first: an unknown meter is 404 whatever else
    if (input.currency !== meter.currency) {
      throw new ValidationError(`Meter ${meter.id} is funded in ${meter.currency}.`, [
        { path: "currency", message: `must be ${meter.currency}` },
      ]);
    }
    // Sanctions screening, a method the rail knows, and wallets of the payer's OWN customers only: before
    // anything is opened, and again on a retry (it may charge what the first attempt left pending).
    await checkCapturable(tx, payer.livemode, input, { merchantId: payer.merchantId, livemode: payer.livemode });
    const spendingAgentId = await fundingAgentOf(tx, payer, input.spendingAgentId);
    return findOrOpenByRequestKey(tx, requestKey, {
      find: (key) => tx.paymentIntent.findUnique({ where: { payerRequestKey: key } }),
      again: (existing) => ({ funding: sameRequest(existing, payer, meterId, input, spendingAgentId), created: false }),
      open: async () => ({
        funding: await openFunding(tx, meter, input.amountMinor, input.paymentMethod, requestKey, {
          merchantId: payer.merchantId,
          spendingAgentId,
        }),
        created: true,
      }),
    });
  });
  const settled = funding.status === "requires_payment" ? await chargeFunding(db, funding.id, hooks) : fundingAnswer(funding);
  return { created, funding: meterFunding(settled) };
}

/**
 * Any merchant's PREPAID meter of the payer's mode (its id is what the gate named). Another mode's, or a
 * post-paid one (nothing to fund), is 404: the payer learns no more about other merchants' meters.
 */
async function prepaidMeterInMode(tx: Db, meterId: string, livemode: boolean): Promise<Meter> {
  const meter = await tx.meter.findFirst({ where: { id: meterId, livemode, prepaid: true } });
  if (!meter) throw new NotFoundError("meter", meterId);
  return meter;
}

/**
 * The spending agent the funding pays as: the one the body names (the payer's own, this mode: else 404), or the
 * payer's API key's. A key that pays as an agent cannot name another (403): its agent's policy cannot be stepped around.
 */
async function fundingAgentOf(tx: Db, payer: Caller, named: string | undefined): Promise<string | null> {
  const agent = await requireOwnSpendingAgent(tx, payer, named);
  const key = await tx.apiKey.findUnique({ where: { id: payer.apiKeyId }, select: { spendingAgentId: true } });
  const keys = key?.spendingAgentId ?? null;
  if (agent && keys && agent !== keys)
    throw new ForbiddenError(`This API key pays as spending agent ${keys}; it cannot fund as ${agent}. Nothing was charged.`, {
      reason: "spending_agent_mismatch",
    });
  return agent ?? keys;
}

function sameRequest(
  pi: PaymentIntent,
  payer: Caller,
  meterId: string,
  input: FundMeterInput,
  spendingAgentId: string | null,
): PaymentIntent {
  assertSameRequest(
    pi.meterFunding &&
      pi.payerMerchantId === payer.merchantId &&
      pi.meterId === meterId &&
      pi.amount === input.amountMinor &&
      chargedMethodOf(pi) === input.paymentMethod &&
      pi.spendingAgentId === spendingAgentId,
  );
  return pi;
}

/** What the payer sees: its funding, nothing of the merchant's meter. */
function meterFunding(pi: PaymentIntent) {
  return {
    object: "meter_funding" as const,
    meterId: pi.meterId!,
    paymentIntentId: pi.id,
    status: pi.status as PaymentIntentStatus,
    amount: pi.amount,
    currency: pi.currency,
    livemode: pi.livemode,
  } satisfies z.input<typeof MeterFundingObject>;
}
