// A meter's most recent usage, for its dashboard page: post-paid usage records, or for a prepaid meter its
// reservations (held, committed or released). Newest first; scoped like every meter read.
import type { Db } from "../db";
import type { Scope } from "../scope";
import { readMeter } from "./meter-errors";
import { serializeReservation, serializeUsageRecord, type ReservationRow, type UsageRecordRow } from "./serialize";

export async function listRecentUsage(db: Db, scope: Scope, meterId: string, limit = 20) {
  const meter = await readMeter(db, scope, meterId);
  if (meter.prepaid) {
    const rows = await db.$queryRaw<ReservationRow[]>`
      SELECT id, meter_id, quantity, unit_price_base, amount_base, created_at, idempotency_key, status, release_reason, expires_at
        FROM meter_reservations WHERE meter_id = ${meter.id} ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
    return { prepaid: true as const, reservations: rows.map((row) => serializeReservation(row, meter.baseUnitsPerMinor, meter.livemode)) };
  }
  const rows = await db.$queryRaw<UsageRecordRow[]>`
    SELECT id, meter_id, quantity, unit_price_base, amount_base, created_at, idempotency_key
      FROM meter_usage_records WHERE meter_id = ${meter.id} ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
  return { prepaid: false as const, usageRecords: rows.map((row) => serializeUsageRecord(row, meter.baseUnitsPerMinor, meter.livemode)) };
}
