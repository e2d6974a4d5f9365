// Why a guarded usage statement (a usage record, a reservation) changed nothing: the meter is read again
// and the first reason that applies is thrown. When none does, the meter changed in between and is returned.
import type { Sql } from "../db";
import type { Meter } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { MeterPastDueError, meterClosed, wrongTrustModel } from "./meter-errors";
import { readMeterSql } from "./meter-row";
import { unbilledLimitError } from "./unbilled-limit";

export async function throwWhyRefused(
  db: Sql,
  scope: Scope,
  meterId: string,
  amount: bigint,
  use: { prepaid: boolean; operation: string },
): Promise<Meter> {
  const meter = await readMeterSql(db, scope, meterId); // 404 when it is not this merchant's
  if (meter.prepaid !== use.prepaid) throw wrongTrustModel(meter, use.operation);
  if (meter.status === "closed") throw meterClosed(meter);
  if (meter.status === "past_due") throw new MeterPastDueError(meter.id);
  const overLimit = unbilledLimitError(meter, amount, "quantity");
  if (overLimit) throw overLimit;
  return meter;
}
