// Tick: a reservation neither committed nor released within METER_RESERVATION_TTL_SECONDS (its caller
// died mid-call) is released, and its hold goes back to the meter's budget, in one statement. Rows are
// claimed with SKIP LOCKED, so concurrent ticks never release one twice; their meters are then locked in id
// order (the `locked` step), so two ticks releasing reservations of the same meters never deadlock.
import type { Db } from "../db";

export async function expireReservations(db: Db, limit = 1000): Promise<number> {
  const [result] = await db.$queryRaw<{ released: number }[]>`
    WITH expired AS (
      UPDATE meter_reservations SET status = 'released', release_reason = 'expired', updated_at = now()
       WHERE id IN (SELECT id FROM meter_reservations WHERE status = 'held' AND expires_at <= now()
                     ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING meter_id, amount_base
    ), per_meter AS (
      SELECT meter_id, sum(amount_base)::bigint AS amount FROM expired GROUP BY meter_id
    ), locked AS (
      SELECT m.id FROM meters m WHERE m.id IN (SELECT meter_id FROM per_meter) ORDER BY m.id FOR UPDATE
    ), upd AS (
      UPDATE meters m SET reserved_base = m.reserved_base - p.amount, updated_at = now()
        FROM per_meter p, locked l WHERE m.id = p.meter_id AND l.id = m.id
      RETURNING m.id
    )
    SELECT (SELECT count(*) FROM expired)::int AS released, (SELECT count(*) FROM upd)::int AS meters`;
  return result.released;
}
