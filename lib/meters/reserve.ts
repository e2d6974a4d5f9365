// Prepaid: hold quantity x unitPriceMinor base units of the budget before the call. ONE statement,
// committing on its own, raises the meter's reservedBase only if budget - used - reserved still covers
// it, and inserts the reservation only if it did. The guard is evaluated on the newest version of the
// meter row (READ COMMITTED re-checks a row that changed under it), so concurrent reservations can never
// together exceed the budget; the table's CHECK backs it up. The reservation's key (the body's
// idempotencyKey, else a digest of the API key and the request's Idempotency-Key) is unique per meter: a retry's statement fails
// on it as a whole, hold included, and gets the first reservation back instead of a second hold.
// Whose hold it is: the answer says `created: true` (201) only to the request that inserted it, and to that
// same request's retries (same API key and Idempotency-Key, kept as `request_key`) while it is still held;
// any other request naming the key gets `created: false` (200) and must not run the paid call. A key whose
// reservation is already committed or released is refused (409 reservation_already_used): it paid for one
// call, which has run or failed, and never pays for another.
import { statement, type Sql } from "../db";
import { env } from "../env";
import { ConflictError, InvariantViolation, ValidationError } from "../errors";
import { createId } from "../ids";
import type { Caller, Scope } from "../scope";
import { InsufficientBudgetError } from "./meter-errors";
import { isOutOfRange, isUniqueViolation, readMeterSql } from "./meter-row";
import type { ReserveInput } from "./schemas";
import { requestDigest } from "../idempotency/request-key";
import { HEADER_KEY_PREFIX, serializeReservation, type ReservationRow } from "./serialize";
import { throwWhyRefused } from "./refused-usage";
import { outOfRangeError, UNBILLED_LIMIT_SQL } from "./unbilled-limit";

// $1 meter, $2 merchant, $3 livemode, $4 reservation id, $5 key or null, $6 quantity, $7 unit price, $8 amount, $9 TTL seconds,
// $10 request key (digest of the API key and Idempotency-Key) or null
const RESERVE = statement(
  "meter_reserve",
  `WITH upd AS (
     UPDATE meters m SET reserved_base = m.reserved_base + $8::bigint, updated_at = now()
      WHERE m.id = $1 AND m.merchant_id = $2 AND m.livemode = $3 AND m.status = 'open' AND m.prepaid
        AND m.budget_base - m.used_base - m.reserved_base >= $8::bigint
        AND m.accrued_base + m.reserved_base + $8::bigint <= ${UNBILLED_LIMIT_SQL}
     RETURNING m.id, m.base_units_per_minor
   ), ins AS (
     INSERT INTO meter_reservations (id, meter_id, idempotency_key, status, quantity, unit_price_base, amount_base, expires_at, request_key)
     SELECT $4, upd.id, $5, 'held', $6, $7, $8, now() + make_interval(secs => $9::int), $10 FROM upd
     RETURNING *
   )
   SELECT ins.*, upd.base_units_per_minor FROM ins, upd`,
);

const FIND_RESERVATION = statement(
  "meter_find_reservation_by_key",
  "SELECT * FROM meter_reservations WHERE meter_id = $1 AND idempotency_key = $2",
);

type Row = ReservationRow & { base_units_per_minor: string };

export async function reserve(db: Sql, scope: Caller, meterId: string, input: ReserveInput, requestKey: string | null = null) {
  const request = requestDigest(scope.apiKeyId, requestKey);
  const key = input.idempotencyKey ?? (request === null ? null : `${HEADER_KEY_PREFIX}${request}`);
  const amount = BigInt(input.quantity) * BigInt(input.unitPriceMinor);
  const attempt = async () => {
    try {
      const [row] = await db.rows<Row>(RESERVE, [
        meterId,
        scope.merchantId,
        scope.livemode,
        createId("meterReservation"),
        key,
        input.quantity,
        input.unitPriceMinor,
        amount.toString(),
        env.METER_RESERVATION_TTL_SECONDS,
        request,
      ]);
      return row ? answer(true, serializeReservation(row, BigInt(row.base_units_per_minor), scope.livemode)) : null;
    } catch (err) {
      if (key && isUniqueViolation(err, "meter_reservations_meter_id_idempotency_key_key"))
        return replay(db, scope, meterId, input, key, request);
      if (isOutOfRange(err)) throw outOfRangeError(meterId);
      throw err;
    }
  };

  const reserved = await attempt();
  if (reserved) return reserved;
  // The guard refused. A retry of a reservation that already landed (its hold now uses the budget it
  // checks, or the meter closed since) is still a replay: answer it before explaining any refusal.
  if (key) {
    const [existing] = await db.rows<ReservationRow>(FIND_RESERVATION, [meterId, key]);
    if (existing) return replay(db, scope, meterId, input, key, request);
  }
  const meter = await throwWhyRefused(db, scope, meterId, amount, { prepaid: true, operation: "a reservation" });
  // The budget was short when the statement ran; a release or top-up may have landed since. Try once
  // more rather than refuse on a figure that is already stale.
  if (meter.budgetBase - meter.usedBase - meter.reservedBase >= amount) {
    const again = await attempt();
    if (again) return again;
  }
  throw new InsufficientBudgetError(meter, amount);
}

// A reservation named only by the request's Idempotency-Key header is stored under a digest of the API key
// and the header (`hdr:<digest>`, as paywall rows keep it), so two API keys of one merchant sending the same
// header never share a hold. It is not echoed (the reservation's `idempotencyKey` is null).

/** The answer of a reserve: the reservation and whether this request created it (also in the body). */
function answer(created: boolean, reservation: ReturnType<typeof serializeReservation>) {
  return { created, reservation: { ...reservation, created } };
}

/**
 * The key reserved before on this meter: the same reservation again is a replay, another is a mistake. A
 * replay is this request's own (created) only when the request key matches; a finished one is refused.
 */
async function replay(db: Sql, scope: Scope, meterId: string, input: ReserveInput, key: string, request: string | null) {
  const meter = await readMeterSql(db, scope, meterId);
  const [existing] = await db.rows<ReservationRow>(FIND_RESERVATION, [meterId, key]);
  if (!existing) throw new InvariantViolation(`No reservation for key ${key} after a conflict on it.`);
  if (existing.quantity !== input.quantity || BigInt(existing.unit_price_base) !== BigInt(input.unitPriceMinor)) {
    throw new ValidationError(
      `The idempotencyKey '${input.idempotencyKey ?? "(Idempotency-Key header)"}' was already used on this meter for a different reservation.`,
      [{ path: "idempotencyKey", message: "already used with a different quantity or unitPriceMinor" }],
    );
  }
  if (existing.status !== "held") {
    const named = input.idempotencyKey === undefined ? "the Idempotency-Key header" : `the idempotencyKey '${input.idempotencyKey}'`;
    throw new ConflictError(
      `The reservation of ${named} is already ${existing.status}: it paid for one call, which has finished. A new call needs a new reservation key.`,
      {
        reason: "reservation_already_used",
        meterId,
        reservationId: existing.id,
        status: existing.status,
        releaseReason: existing.release_reason,
      },
    );
  }
  const own = request !== null && (existing.request_key === request || existing.idempotency_key === `${HEADER_KEY_PREFIX}${request}`);
  return answer(own, serializeReservation(existing, meter.baseUnitsPerMinor, scope.livemode));
}
