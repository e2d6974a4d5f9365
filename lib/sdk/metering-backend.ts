// The metered paywall's backend (SPEC.md 2.8 "backend"): records post-paid usage, or reserves, commits
// and releases prepaid usage. serviceMeteringBackend() calls the service's /v1/meters endpoints.
// Amounts are in BASE units: a meter's `baseUnitsPerMinor` (default 1,000,000) base units make one minor
// unit, so a price of 0.4 cent per call is unitPriceMinor = 400,000.
import { ServiceClient, type ServiceClientOptions } from "./client";
import { ServiceError } from "./errors";

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
  idempotencyKey?: string;
}

export type ReserveOutcome =
  | { ok: true; reservationId: string }
  | { ok: false; reason: "insufficient_budget"; details?: Record<string, unknown>; topUpUrl?: string };

export interface MeteringBackend {
  /** Post-paid: meter a successful call; the same idempotencyKey counts once. */
  recordUsage(params: UsageParams): Promise<void>;
  /** Prepaid: hold quantity x unitPriceMinor of the funded budget; `ok: false` when it cannot cover it. */
  reserve(params: ReservationParams): Promise<ReserveOutcome>;
  /** Prepaid: bill a held reservation after a successful call. */
  commit(params: { meterId: string; reservationId: string }): Promise<void>;
  /** Prepaid: give a held reservation back after a failed call (it is not billed). */
  release(params: { meterId: string; reservationId: string }): Promise<void>;
  /** Where the budget of a meter is topped up, shown in the top-up gate when known. */
  topUpUrl?(meterId: string): string | undefined;
}

export type ServiceMeteringBackendOptions = Pick<ServiceClientOptions, "baseUrl" | "apiKey" | "timeoutMs" | "maxRetries" | "fetch">;

/**
 * A reservation the budget cannot cover is refused by the service with a 402 (any code) or an error whose
 * `details.reason` is `insufficient_budget`; both become `{ ok: false }`. Other failures throw ServiceError.
 */
export function serviceMeteringBackend(options: ServiceMeteringBackendOptions): MeteringBackend {
  const client = new ServiceClient({ timeoutMs: 10_000, ...options });
  return {
    async recordUsage({ meterId, quantity, unitPriceMinor, idempotencyKey }) {
      // The body's idempotencyKey dedupes the logical call on the meter; the request's own Idempotency-Key
      // (generated, reused by the client's retries) only covers this one request.
      await client.meters.recordUsage(meterId, { quantity, unitPriceMinor, idempotencyKey });
    },
    async reserve({ meterId, quantity, unitPriceMinor, idempotencyKey }) {
      try {
        const reservation = await client.meters.reserve(meterId, { quantity, unitPriceMinor, ...(idempotencyKey ? { idempotencyKey } : {}) });
        return { ok: true, reservationId: reservation.id };
      } catch (err) {
        if (isInsufficientBudget(err)) {
          // The service's refusal carries the top-up prompt (details.topUp: url, method, minimumAmountMinor).
          const topUp = err.details.topUp as { url?: unknown } | undefined;
          const topUpUrl = typeof topUp?.url === "string" ? topUp.url : undefined;
          return { ok: false, reason: "insufficient_budget", details: err.details, ...(topUpUrl ? { topUpUrl } : {}) };
        }
        throw err;
      }
    },
    async commit({ meterId, reservationId }) {
      await client.meters.commitReservation(meterId, reservationId);
    },
    async release({ meterId, reservationId }) {
      await client.meters.releaseReservation(meterId, reservationId);
    },
  };
}

function isInsufficientBudget(err: unknown): err is ServiceError {
  if (!ServiceError.is(err)) return false;
  return err.status === 402 || err.details.reason === "insufficient_budget" || err.code === "insufficient_budget";
}
