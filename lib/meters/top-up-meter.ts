// Prepaid: raise the meter's budget by amountMinor. One guarded UPDATE: a meter that is closed (or closing
// in a concurrent request, which holds the row) is refused, never funded after its final settlement.
import type { Db } from "../db";
import type { Meter } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { MeterPastDueError, meterClosed, readMeter, wrongTrustModel } from "./meter-errors";
import type { TopUpInput } from "./schemas";
import { serializeMeter } from "./serialize";

export async function topUpMeter(tx: Db, scope: Scope, meterId: string, input: TopUpInput) {
  const [updated] = await tx.$queryRaw<{ id: string }[]>`
    UPDATE meters SET budget_base = budget_base + ${input.amountMinor}::bigint * base_units_per_minor, updated_at = now()
     WHERE id = ${meterId} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND status = 'open' AND prepaid
    RETURNING id`;
  const meter: Meter = await readMeter(tx, scope, meterId);
  if (updated) return serializeMeter(meter);
  if (!meter.prepaid) throw wrongTrustModel(meter, "a top-up");
  if (meter.status === "past_due") throw new MeterPastDueError(meter.id);
  throw meterClosed(meter);
}
