// The metered paywall's backend (docs/sdk.md "Metered paywall" "backend"): records post-paid usage, or reserves, commits
// and releases prepaid usage. serviceMeteringBackend() calls the service's /v1/meters endpoints.
// Amounts are in BASE units: a meter's `baseUnitsPerMinor` (default 1,000,000) base units make one minor
// unit, so a price of 0.4 cent per call is unitPriceMinor = 400,000.
import { ServiceClient, type ServiceClientOptions } from "./client";
import { alreadyUsedOf, meterRefusalOf, type AlreadyUsedRefusal, type MeterRefusal, type PastDueRefusal } from "./meter-refusals";
import { meterStanding } from "./meter-standing";
import { usageBuffer, type RefusedUsage, type UsageBufferOptions } from "./usage-buffer";

export interface UsageParams {
  meterId: string;
  quantity: number;
  /** Price per unit in base units. */
  unitPriceMinor: number;
  idempotencyKey: string;
}

export interface ReservationParams {
  meterId: string;
  quantity: number;
  unitPriceMinor: number;
  /** The reservation's key; meteredPaywall makes a new one per call (never the caller's). */
  idempotencyKey?: string;
}

/**
 * `ok: true` only for a hold THIS call created (`created: true`, the service's answer): only then may the
 * paid call run. A hold of another call under the same key, or a key whose reservation has finished, is
 * the `already_used` refusal.
 */
export type ReserveOutcome = { ok: true; reservationId: string; created: true } | MeterRefusal | AlreadyUsedRefusal;

/** recordUsage's answer when the record was buffered: it is sent in a batch later (see UsageBufferOptions). */
export interface UsageBuffered {
  ok: true;
  buffered: true;
}

export interface MeteringBackend {
  /**
   * Post-paid: meter a successful call; the same idempotencyKey counts once. Returns a past-due refusal
   * when the meter refuses usage until an earlier declined charge is settled (nothing returned: recorded),
   * or `{ ok: true, buffered: true }` when the record was buffered to be sent in a batch.
   */
  recordUsage(params: UsageParams): Promise<void | PastDueRefusal | UsageBuffered>;
  /** Buffering backends: sends every buffered record now; resolves once the service acknowledged them. */
  flush?(): Promise<void>;
  /** Buffering backends: stops the flush timer and sends what is left (call it on shutdown). */
  close?(): Promise<void>;
  /**
   * Prepaid: hold quantity x unitPriceMinor of the funded budget; `ok: false` when the meter refuses it, or
   * `already_used` when the hold under that key is not a new one of this call (it must not run).
   */
  reserve(params: ReservationParams): Promise<ReserveOutcome>;
  /** Prepaid: bill a held reservation after a successful call. */
  commit(params: { meterId: string; reservationId: string }): Promise<void>;
  /** Prepaid: give a held reservation back after a failed call (it is not billed). */
  release(params: { meterId: string; reservationId: string }): Promise<void>;
  /** Where the budget of a meter is topped up, shown in the top-up gate when known. */
  topUpUrl?(meterId: string): string | undefined;
  /** Post-paid, before the handler runs: the meter's past-due refusal, or null when it takes usage. */
  pastDue?(meterId: string): Promise<PastDueRefusal | null>;
}

export type ServiceMeteringBackendOptions = Pick<ServiceClientOptions, "baseUrl" | "apiKey" | "timeoutMs" | "maxRetries" | "fetch"> & {
  /**
   * Post-paid: how long a meter read in good standing is trusted before the next call reads it again
   * (GET /v1/meters/:id). Default 10,000 ms; 0 reads it before every call. A meter seen past due is read
   * before every call until it is settled.
   */
  meterStatusTtlMs?: number;
  /**
   * Post-paid: buffer usage records and send them in batches (POST /v1/meters/usage_batches) instead of one
   * request per call; `true` takes the defaults (batches of 1,000, every 1,000 ms, at most 10,000 held).
   * A record is at risk only until its batch is acknowledged (await backend.close() on shutdown; flush()
   * in tests). Prepaid reservations are never buffered. See UsageBufferOptions and docs/meters.md.
   */
  buffer?: boolean | UsageBufferOptions;
};

/**
 * A refusal of the service (402 PAYMENT_DECLINED whose `details.reason` is `insufficient_budget` or
 * `meter_past_due`) becomes `{ ok: false, reason }`; so does a reservation this call did not create
 * (`created` not true: `already_used`, as is a 409 `reservation_already_used`). Every other failure,
 * another 402 included, throws its ServiceError.
 */
export function serviceMeteringBackend(options: ServiceMeteringBackendOptions): MeteringBackend {
  const { meterStatusTtlMs = 10_000, buffer: bufferOption, ...clientOptions } = options;
  if (!Number.isFinite(meterStatusTtlMs) || meterStatusTtlMs < 0) {
    throw new TypeError(
      `serviceMeteringBackend: "meterStatusTtlMs" must be a non-negative number of milliseconds; got ${String(meterStatusTtlMs)}.`,
    );
  }
  const client = new ServiceClient({ timeoutMs: 10_000, ...clientOptions });
  const standing = meterStanding({ ttlMs: meterStatusTtlMs, read: (meterId) => readPastDue(client, meterId) });
  const bufferOptions = bufferOption === true ? {} : bufferOption || null;
  const buffer = bufferOptions
    ? usageBuffer((records, idempotencyKey) => client.meters.recordUsageBatch(records, { idempotencyKey }), {
        ...bufferOptions,
        onRefused: (refused: RefusedUsage[]) => {
          // A meter that refused a buffered record as past due gates the next calls before they run.
          for (const { record, error } of refused)
            if (error.code === "PAYMENT_DECLINED") standing.markPastDue(record.meterId, pastDueRefusal(client, record.meterId));
          (bufferOptions.onRefused ?? defaultOnRefused)(refused);
        },
      })
    : null;
  return {
    ...(buffer ? { flush: () => buffer.flush(), close: () => buffer.close() } : {}),
    async recordUsage({ meterId, quantity, unitPriceMinor, idempotencyKey }) {
      if (buffer) {
        await buffer.add({ meterId, quantity, unitPriceMinor, idempotencyKey });
        return { ok: true, buffered: true } as const;
      }
      // The body's idempotencyKey dedupes the logical call on the meter; the request's own Idempotency-Key
      // (generated, reused by the client's retries) only covers this one request.
      try {
        await client.meters.recordUsage(meterId, { quantity, unitPriceMinor, idempotencyKey });
      } catch (err) {
        const refusal = meterRefusalOf(err);
        if (refusal?.reason !== "meter_past_due") throw err;
        standing.markPastDue(meterId, refusal);
        return refusal;
      }
    },
    async reserve({ meterId, quantity, unitPriceMinor, idempotencyKey }) {
      try {
        const reservation = await client.meters.reserve(meterId, {
          quantity,
          unitPriceMinor,
          ...(idempotencyKey ? { idempotencyKey } : {}),
        });
        // Only a hold this request created pays for this call (the client's own retries of the request are
        // answered `created: true` too); a 2xx alone is no proof: another call's hold answers 200.
        if (reservation.created !== true || reservation.status !== "held") {
          return { ok: false, reason: "already_used", reservationId: reservation.id, status: reservation.status };
        }
        return { ok: true, reservationId: reservation.id, created: true };
      } catch (err) {
        // The service's refusal carries its prompt: details.topUp (url, method, minimumAmountMinor) or details.retryPayment.
        const refusal = meterRefusalOf(err) ?? alreadyUsedOf(err);
        if (refusal) return refusal;
        throw err;
      }
    },
    async commit({ meterId, reservationId }) {
      await client.meters.commitReservation(meterId, reservationId);
    },
    async release({ meterId, reservationId }) {
      await client.meters.releaseReservation(meterId, reservationId);
    },
    pastDue: (meterId) => standing.pastDue(meterId),
  };
}

function defaultOnRefused(refused: RefusedUsage[]) {
  console.warn(
    `serviceMeteringBackend: the service refused ${refused.length} buffered usage record(s):`,
    refused.map((r) => `${r.record.meterId}/${r.record.idempotencyKey}: ${r.error.code}`).join(", "),
  );
}

function pastDueRefusal(client: ServiceClient, meterId: string): PastDueRefusal {
  const url = `${client.baseUrl}/v1/meters/${encodeURIComponent(meterId)}/retry-payment`;
  return {
    ok: false,
    reason: "meter_past_due",
    retryPaymentUrl: url,
    details: { reason: "meter_past_due", meterId, retryPayment: { url, method: "POST" } },
  };
}

/** GET the meter: past due -> the refusal the service would give its usage (with the outstanding amount). */
async function readPastDue(client: ServiceClient, meterId: string): Promise<PastDueRefusal | null> {
  const meter = await client.meters.retrieve(meterId);
  if (meter.status !== "past_due") return null;
  const url = `${client.baseUrl}/v1/meters/${encodeURIComponent(meterId)}/retry-payment`;
  return {
    ok: false,
    reason: "meter_past_due",
    retryPaymentUrl: url,
    details: {
      reason: "meter_past_due",
      meterId,
      outstandingMinor: meter.outstandingMinor,
      currency: meter.currency,
      retryPayment: { url, method: "POST" },
    },
  };
}
