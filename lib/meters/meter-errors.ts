// Why a meter refused an operation. The hot paths try their atomic UPDATE first; only when it matched
// nothing does this read the meter (a fresh statement, so a fresh snapshot) to name the reason.
import type { Db } from "../db";
import { env } from "../env";
import { ConflictError, DomainError, NotFoundError } from "../errors";
import type { Meter } from "../generated/prisma/client";
import { findInScope } from "../pagination";
import type { Scope } from "../scope";
import { METERS } from "./meter-row";

/**
 * 402: the prepaid budget cannot cover the call. `details.topUp` is the prompt the SDK's gate shows: `url` is the
 * merchant's top-up (its secret key), `payerUrl` the payer's own funding endpoint (POST /v1/meters/:id/fund).
 */
export class InsufficientBudgetError extends DomainError {
  constructor(meter: Meter, requiredBase: bigint) {
    const availableBase = meter.budgetBase - meter.usedBase - meter.reservedBase;
    const shortfallBase = requiredBase - availableBase;
    const shortfallMinor = (shortfallBase + meter.baseUnitsPerMinor - 1n) / meter.baseUnitsPerMinor;
    const minimumAmountMinor = shortfallMinor > 0n ? shortfallMinor : 1n;
    super(
      "PAYMENT_DECLINED",
      `The prepaid budget of meter ${meter.id} cannot cover this call; top up at least ${minimumAmountMinor} (minor units of ${meter.currency}) and retry.`,
      {
        reason: "insufficient_budget",
        meterId: meter.id,
        requiredBase: Number(requiredBase),
        availableBase: Number(availableBase),
        topUp: {
          url: `${env.BASE_URL}/v1/meters/${meter.id}/top-up`,
          // The payer (the agent that got this refusal) funds the budget here with its own key.
          payerUrl: `${env.BASE_URL}/v1/meters/${meter.id}/fund`,
          method: "POST",
          minimumAmountMinor: Number(minimumAmountMinor),
          currency: meter.currency,
        },
      },
    );
  }
}

/** 402: an aggregate charge of this meter was declined; it takes no new usage or reservations until collected. */
export class MeterPastDueError extends DomainError {
  constructor(meterId: string) {
    super(
      "PAYMENT_DECLINED",
      `An aggregate charge of meter ${meterId} was declined; the meter is past due until POST /v1/meters/${meterId}/retry-payment collects it.`,
      {
        reason: "meter_past_due",
        meterId,
        retryPayment: { url: `${env.BASE_URL}/v1/meters/${meterId}/retry-payment`, method: "POST" },
      },
    );
  }
}

export function meterClosed(meter: Meter) {
  return new ConflictError(`The meter ${meter.id} is closed.`, { meterId: meter.id, status: meter.status });
}

export function wrongTrustModel(meter: Meter, operation: string) {
  return meter.prepaid
    ? new ConflictError(`The meter ${meter.id} is prepaid: ${operation} is for post-paid meters; reserve and commit instead.`, {
        meterId: meter.id,
        prepaid: true,
      })
    : new ConflictError(`The meter ${meter.id} is post-paid: ${operation} is for prepaid meters; record usage instead.`, {
        meterId: meter.id,
        prepaid: false,
      });
}

export async function readMeter(db: Db, scope: Scope, id: string): Promise<Meter> {
  const meter = await findInScope<Meter>(db, METERS, scope, id);
  if (!meter) throw new NotFoundError("meter", id);
  return meter;
}
