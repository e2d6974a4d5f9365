// meteredPaywall(options)(handler): per-unit pricing below one minor unit (docs/sdk.md "Metered paywall").
//   prepaid: false (trusted callers): run the handler, then record usage ONLY when it succeeded (did not
//     throw, no isError), under idempotencyKey(args) so a retried call is never metered twice.
//   prepaid: true (untrusted callers): reserve before running; commit on success; release (not billed)
//     when the handler throws or returns isError; a reservation refused for lack of budget returns a
//     top-up gate and the handler does not run. Each call reserves under a NEW key made here (never one
//     the caller could name or repeat), at least one unit, and runs the handler only when the backend
//     says this call created the hold (`created: true`); anything else is the already_used result.
//   Either way a past-due meter (an earlier charge of it was declined) returns the meter_past_due gate:
//     prepaid, the reservation is refused; post-paid, backend.pastDue(meterId) is asked before the handler
//     runs, and if usage is still refused after it ran (the meter fell past due meanwhile) the gate
//     replaces the result, so an unbilled result is never handed out.
// The successful result gains `metering: { meterId, quantity, unitPriceMinor, amountBase, status }`
// (status "buffered" when a buffering backend will send the post-paid record in a later batch).
// A metering call that still fails after the client's retries throws its ServiceError (the caller may
// retry; post-paid usage is deduplicated by the idempotency key).
import { randomUUID } from "node:crypto";
import { structuredErrorResult, type CallToolResult, type StructuredErrorResult } from "./mcp-types";
import type { AlreadyUsedRefusal, PastDueRefusal } from "./meter-refusals";
import type { MeteringBackend } from "./metering-backend";

type ArgsFn<A, E, T> = (args: A, extra: E) => T;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a handler's args and extra stay whatever the caller's tool declares
export interface MeteredPaywallOptions<A = any, E = any> {
  backend: MeteringBackend;
  /** The meter opened beforehand for this agent/customer, or a function of the call picking it. */
  meterId: string | ArgsFn<A, E, string>;
  /** Integer price per unit in BASE units (a meter's baseUnitsPerMinor, default 1,000,000, make one minor unit). */
  unitPriceMinor: number;
  /**
   * Units used by a call; undefined, null or NaN count as 1; fractions are rounded up. Compute it from the
   * work the call does (the size of its input), never from a count the caller declares. Prepaid, a call
   * reserves at least 1 unit (0 counts as 1): an untrusted caller never gets a free run.
   */
  quantity: ArgsFn<A, E, number | null | undefined>;
  /** Required, no default: true = reserve against a funded budget first; false = meter after success (trusted callers). */
  prepaid: boolean;
  /**
   * Required when prepaid is false: the key of the logical call, so a retry is never metered twice.
   * Refused when prepaid is true: each prepaid call is reserved under a new key the wrapper makes, so a
   * repeated or concurrent call can never ride on another call's reservation.
   */
  idempotencyKey?: ArgsFn<A, E, string>;
  /** Shown in the top-up gate (prepaid); defaults to backend.topUpUrl?.(meterId), then the service's own prompt (details.topUp.url). */
  topUpUrl?: string;
  /** Shown in the past-due gate (your own page to settle the outstanding amount); defaults to the service's details.retryPayment.url. */
  retryPaymentUrl?: string;
}

export interface MeteringBlock {
  meterId: string;
  quantity: number;
  unitPriceMinor: number;
  /** quantity x unitPriceMinor, in base units. */
  amountBase: number;
  /** recorded: the service counted it; buffered: it is sent in the next batch (a buffering backend); committed: prepaid. */
  status: "recorded" | "buffered" | "committed";
}

interface MeteredGateFields {
  kind: "payment_required";
  meterId: string;
  quantity: number;
  unitPriceMinor: number;
  amountBase: number;
  message: string;
  /** The service's refusal as it gave it (with the service backend). */
  details?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The prepaid budget cannot cover the call: top it up (at least minimumAmountMinor, when known) and call again. */
export interface TopUpGate extends MeteredGateFields {
  reasonCode: "insufficient_budget";
  topUpUrl?: string;
  /**
   * Where the agent itself funds the budget with its OWN API key (the service's details.topUp.payerUrl):
   * POST `{ amountMinor, paymentMethod }` there (ServiceClient `meters.fund`), then call again.
   */
  fundUrl?: string;
  /** The least top-up, in minor units, that lets this call run (the service's details.topUp.minimumAmountMinor). */
  minimumAmountMinor?: number;
}

/** An earlier charge of the meter was declined: settle the outstanding amount (retry-payment) and call again. */
export interface PastDueGate extends MeteredGateFields {
  reasonCode: "meter_past_due";
  retryPaymentUrl?: string;
}

export type MeteredGate = TopUpGate | PastDueGate;

/** `metering?: undefined` lets callers test `result.metering` on any MeteredResult. */
export type TopUpToolResult = StructuredErrorResult<TopUpGate> & { metering?: undefined };
export type PastDueToolResult = StructuredErrorResult<PastDueGate> & { metering?: undefined };

/** Prepaid: the reservation was not a new hold of this call (another call's, or finished); the handler did not run. */
export interface AlreadyUsedResult {
  kind: "already_used";
  result: "already_used";
  meterId: string;
  reservationId?: string;
  /** The reservation's status when known (held by another call, committed, released). */
  status?: string;
  message: string;
  [field: string]: unknown;
}
export type AlreadyUsedToolResult = StructuredErrorResult<AlreadyUsedResult> & { metering?: undefined };

/** The handler's own result (with a metering block when it was billed), the top-up gate, the past-due gate or already_used. */
export type MeteredResult<R> =
  (R & { metering?: MeteringBlock; isError?: boolean }) | TopUpToolResult | PastDueToolResult | AlreadyUsedToolResult;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export function meteredPaywall<A = any, E = any>(options: MeteredPaywallOptions<A, E>) {
  const config = validate(options);
  return function wrap<HA extends A, HE extends E, R extends CallToolResult>(handler: (args: HA, extra: HE) => R | Promise<R>) {
    if (typeof handler !== "function") throw new TypeError("meteredPaywall(options)(handler): handler must be a function.");
    return async function metered(args: HA, extra: HE): Promise<MeteredResult<R>> {
      const meterId = typeof config.meterId === "function" ? config.meterId(args, extra) : config.meterId;
      if (typeof meterId !== "string" || !meterId) throw new TypeError("meteredPaywall: meterId resolved to an empty value.");
      const units = unitsOf(config.quantity(args, extra));
      const quantity = config.prepaid ? Math.max(1, units) : units;
      const amountBase = quantity * config.unitPriceMinor;
      const key = config.idempotencyKey ? config.idempotencyKey(args, extra) : `mp_${randomUUID()}`; // prepaid: per call, ours
      if (config.idempotencyKey && (typeof key !== "string" || key.length === 0)) {
        throw new TypeError("meteredPaywall: idempotencyKey(args) must return a non-empty string.");
      }
      const block = (status: MeteringBlock["status"]): MeteringBlock => ({
        meterId,
        quantity,
        unitPriceMinor: config.unitPriceMinor,
        amountBase,
        status,
      });
      const call = { meterId, quantity, unitPriceMinor: config.unitPriceMinor, amountBase };

      if (quantity === 0) return handler(args, extra);

      if (!config.prepaid) {
        const pastDue = await config.backend.pastDue?.(meterId);
        if (pastDue) return pastDueGate(call, pastDue, config.retryPaymentUrl);
        const result = await handler(args, extra);
        if (result.isError) return result;
        const refused = await config.backend.recordUsage({
          meterId,
          quantity,
          unitPriceMinor: config.unitPriceMinor,
          idempotencyKey: key!,
        });
        // The meter fell past due after the check: the call ran but cannot be billed, so its result is withheld.
        if (refused && !refused.ok) return pastDueGate(call, refused, config.retryPaymentUrl);
        return { ...result, metering: block(refused?.ok && refused.buffered ? "buffered" : "recorded") };
      }

      const reservation = await config.backend.reserve({ meterId, quantity, unitPriceMinor: config.unitPriceMinor, idempotencyKey: key });
      // Only a hold this call created pays for it (a custom backend that does not say so is not trusted to).
      if (reservation.ok && reservation.created !== true)
        return alreadyUsed(meterId, { ok: false, reason: "already_used", reservationId: reservation.reservationId });
      if (!reservation.ok) {
        if (reservation.reason === "already_used") return alreadyUsed(meterId, reservation);
        if (reservation.reason === "meter_past_due") return pastDueGate(call, reservation, config.retryPaymentUrl);
        const topUpUrl = config.topUpUrl ?? config.backend.topUpUrl?.(meterId) ?? reservation.topUpUrl;
        const { fundUrl, minimumAmountMinor } = reservation;
        const gate: TopUpGate = {
          kind: "payment_required",
          reasonCode: "insufficient_budget",
          ...call,
          ...(topUpUrl ? { topUpUrl } : {}),
          ...(fundUrl ? { fundUrl } : {}),
          ...(minimumAmountMinor !== undefined ? { minimumAmountMinor } : {}),
          message: topUpMessage(meterId, amountBase, topUpUrl, fundUrl, minimumAmountMinor),
          ...(reservation.details ? { details: reservation.details } : {}),
        };
        return structuredErrorResult(gate, gate.message);
      }
      const held = { meterId, reservationId: reservation.reservationId };
      let result: R;
      try {
        result = await handler(args, extra);
      } catch (err) {
        await config.backend.release(held).catch(() => undefined); // the handler's error is the one to report
        throw err;
      }
      if (result.isError) {
        await config.backend.release(held);
        return result;
      }
      await config.backend.commit(held);
      return { ...result, metering: block("committed") };
    };
  };
}

/** The top-up gate's prompt: the merchant's top-up, and (when the service names it) the agent's own funding endpoint. */
function topUpMessage(meterId: string, amountBase: number, topUpUrl?: string, fundUrl?: string, minimumAmountMinor?: number): string {
  const least = minimumAmountMinor !== undefined ? `at least ${minimumAmountMinor} minor units` : "";
  const prompt = `The prepaid budget of meter ${meterId} cannot cover this call (${amountBase} base units); top up the budget${least ? ` by ${least}` : ""}${topUpUrl ? ` at ${topUpUrl}` : ""} and call again.`;
  if (!fundUrl) return prompt;
  // Names the operation, not "send your key to this URL": the URL comes from the tool's server, and an agent
  // should send its key only to the payment service it already uses (its own client's base address).
  return `${prompt} You can fund it yourself through your own payment-service client: meters.fund("${meterId}", { amountMinor${least ? ` (${least})` : ""}, currency, paymentMethod }) (POST /v1/meters/${meterId}/fund with your own API key), then call again.`;
}

/** The reservation is not this call's own: nothing runs, nothing is committed or released (it is not ours to finish). */
function alreadyUsed(meterId: string, refusal: AlreadyUsedRefusal): AlreadyUsedToolResult {
  const { reservationId, status } = refusal;
  const body: AlreadyUsedResult = {
    kind: "already_used",
    result: "already_used",
    meterId,
    ...(reservationId ? { reservationId } : {}),
    ...(status ? { status } : {}),
    message: `The reservation for this call on meter ${meterId} is not a new one${status ? ` (it is ${status})` : ""}: it pays for another call, so this one did not run. Call again.`,
  };
  return structuredErrorResult(body, body.message);
}

type GatedCall = Pick<PastDueGate, "meterId" | "quantity" | "unitPriceMinor" | "amountBase">;

function pastDueGate(call: GatedCall, refusal: PastDueRefusal, ownUrl: string | undefined): PastDueToolResult {
  const retryPaymentUrl = ownUrl ?? refusal.retryPaymentUrl;
  const gate: PastDueGate = {
    kind: "payment_required",
    reasonCode: "meter_past_due",
    ...call,
    ...(retryPaymentUrl ? { retryPaymentUrl } : {}),
    message: `Meter ${call.meterId} is past due: an earlier charge for its usage was declined. Settle the outstanding amount${retryPaymentUrl ? ` at ${retryPaymentUrl}` : ""} (retry the payment, with another payment method if needed) and call again.`,
    ...(refusal.details ? { details: refusal.details } : {}),
  };
  return structuredErrorResult(gate, gate.message);
}

/** undefined, null, NaN (and non-numbers) -> 1; fractions round up; negatives are a programming error. */
function unitsOf(value: unknown): number {
  if (value === undefined || value === null || typeof value !== "number" || Number.isNaN(value)) return 1;
  if (!Number.isFinite(value) || value < 0)
    throw new TypeError(`meteredPaywall: quantity(args) returned ${value}; it must be a non-negative number.`);
  return Math.ceil(value);
}

function validate<A, E>(options: MeteredPaywallOptions<A, E>): MeteredPaywallOptions<A, E> {
  const name = "meteredPaywall";
  if (!options || typeof options !== "object") throw new TypeError(`${name}: options are required.`);
  const { backend, meterId, unitPriceMinor, quantity, prepaid, idempotencyKey } = options;
  if (!backend || typeof backend.reserve !== "function" || typeof backend.recordUsage !== "function") {
    throw new TypeError(`${name}: "backend" is required: serviceMeteringBackend({ baseUrl, apiKey }) or a MeteringBackend.`);
  }
  if (!(typeof meterId === "function" || (typeof meterId === "string" && meterId.length > 0)))
    throw new TypeError(`${name}: "meterId" is required.`);
  if (!Number.isSafeInteger(unitPriceMinor) || unitPriceMinor < 1) {
    throw new TypeError(
      `${name}: "unitPriceMinor" must be a positive integer in base units (1,000,000 per minor unit by default); got ${String(unitPriceMinor)}.`,
    );
  }
  if (typeof quantity !== "function")
    throw new TypeError(`${name}: "quantity" is required: a function of the call's arguments returning the units used.`);
  if (typeof prepaid !== "boolean") throw new TypeError(`${name}: "prepaid" is required (true or false); there is no default trust model.`);
  if (!prepaid && typeof idempotencyKey !== "function") {
    throw new TypeError(`${name}: "idempotencyKey" is required when prepaid is false, so that a retried call is never metered twice.`);
  }
  if (prepaid && idempotencyKey !== undefined) {
    throw new TypeError(
      `${name}: "idempotencyKey" is not taken when prepaid is true: each prepaid call is reserved under a new key the wrapper makes, so a caller repeating a key can never run the tool again on one reservation.`,
    );
  }
  if (idempotencyKey !== undefined && typeof idempotencyKey !== "function")
    throw new TypeError(`${name}: "idempotencyKey" must be a function.`);
  return options;
}
