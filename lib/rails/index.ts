// Which rail serves a mode, and every call to it through that rail's circuit breaker. Test mode always
// uses the test rail; live mode uses LIVE_RAIL, and with none configured a live charge is a 502 that
// says so (never a silent success).
import { isDatabaseUnavailable } from "../db-availability";
import { env } from "../env";
import { UpstreamError } from "../errors";
import { BreakerRegistry } from "./breaker-registry";
import { CircuitBreaker } from "../circuit-breaker";
import {
  RailUnavailableError,
  type AttemptWrite,
  type ChargeRequest,
  type ChargeResult,
  type Rail,
  type RailDisputes,
  type RefundRequest,
  type RefundResult,
} from "./rail";
import { testRail } from "./test-rail";
import { globalSingleton } from "../global-singleton";

/** 502 from a rail call; `notCharged` says the rail certainly took nothing (the breaker's fast fail included). */
export class RailCallFailedError extends UpstreamError {
  constructor(
    message: string,
    readonly notCharged: boolean,
  ) {
    super(message);
  }
}

/** Whose calls a rail call counts against: the merchant that asked for it (the payer, when one pays another), and the mode. */
export interface BreakerScope {
  merchantId: string;
  livemode: boolean;
}

/** The breaker scope of a rail call about a PaymentIntent: its payer's when another merchant paid it, else its merchant's. */
export function breakerScopeOf(pi: { merchantId: string; payerMerchantId: string | null; livemode: boolean }): BreakerScope {
  return { merchantId: pi.payerMerchantId ?? pi.merchantId, livemode: pi.livemode };
}

/** Breakers kept per process at most (bounded memory; see breaker-registry.ts for what is dropped first). */
export const MAX_BREAKERS = 10_000;

function breakerFor(rail: Rail, scope: BreakerScope): CircuitBreaker {
  const breakers = globalSingleton(
    "rails.breakers",
    () => new BreakerRegistry(MAX_BREAKERS, (key) => new CircuitBreaker(key.split(":")[0])),
  );
  const key = rail.breakerPerMerchant ? `${rail.name}:${scope.merchantId}:${scope.livemode ? "live" : "test"}` : rail.name;
  return breakers.get(key);
}

/** Whether payments of this mode can be charged at all: test mode always, live mode once LIVE_RAIL names a rail. */
export function paymentsAvailable(livemode: boolean): boolean {
  return !livemode || env.LIVE_RAIL !== "none";
}

export function railFor(livemode: boolean): Rail {
  if (paymentsAvailable(livemode)) return testRail;
  throw new UpstreamError("No payment rail is configured for live mode (set LIVE_RAIL); nothing was charged.");
}

/** The live rail's dispute feed (docs/disputes.md, "Live mode"), or null when no live rail reports disputes. */
export function liveRailDisputes(): RailDisputes | null {
  return paymentsAvailable(true) ? (railFor(true).disputes ?? null) : null;
}

/**
 * Rails by name, for the charges a rail other than the mode's took (live x402's `x402-evm`, chosen by the
 * payment itself): its adapter registers it at startup (lib/register-adapters.ts). On globalThis: Next
 * bundles instrumentation and the routes apart, and they must see the same table.
 */
function namedRails(): Map<string, Rail> {
  return globalSingleton("rails.named", () => new Map<string, Rail>([[testRail.name, testRail]]));
}

export function registerRail(rail: Rail): void {
  namedRails().set(rail.name, rail);
}

/** The rail that took a charge (its attempt's `rail`), to ask it again or to refund it. */
export function railNamed(name: string): Rail {
  const rail = namedRails().get(name);
  if (!rail) throw new UpstreamError(`The ${name} rail is not available in this process; nothing was charged.`);
  return rail;
}

/** Whether the money of this rail's charges never passes through the service (Rail.custodial). */
export function isNonCustodialRail(name: string | null): boolean {
  return name !== null && namedRails().get(name)?.custodial === false;
}

/**
 * The rail's calls, guarded. A decline is an answer, not an error; anything a rail call throws is an
 * upstream failure: it counts against the breaker of `scope` (the rail's only one, or the merchant's and
 * mode's on a per-merchant rail) and becomes 502 UPSTREAM_ERROR. Except our own database being unreachable
 * (the test rail keeps its books there): that is the outage's 503, and says nothing about the rail; the
 * charge's outcome is then unknown, as after a crash (the attempt stays pending until the rail is asked).
 */
export function guarded(rail: Rail, scope: BreakerScope) {
  const breaker = breakerFor(rail, scope);
  const run = async <T>(call: () => Promise<T>): Promise<T> => {
    let reached = false;
    try {
      return await breaker.run(
        () => ((reached = true), withTimeLimit(call())),
        (err) => !isDatabaseUnavailable(err),
      );
    } catch (err) {
      if (!reached || isDatabaseUnavailable(err)) throw err; // the breaker's own fast fail (503), or our database's outage (503)
      const reason = err instanceof RailUnavailableError ? err.message : "unexpected rail error";
      if (!(err instanceof RailUnavailableError)) console.error(`${rail.name} rail error:`, err);
      throw new RailCallFailedError(`The ${rail.name} rail failed: ${reason}`, err instanceof RailUnavailableError && err.notCharged);
    }
  };
  const withAttempt = rail.chargeWithAttempt?.bind(rail);
  return {
    name: rail.name,
    custodial: rail.custodial,
    supportsPaymentMethod: (paymentMethod: string) => rail.supportsPaymentMethod(paymentMethod),
    charge: (request: ChargeRequest): Promise<ChargeResult> => run(() => rail.charge(request)),
    chargeWithAttempt: withAttempt
      ? (request: ChargeRequest, attempt: AttemptWrite): Promise<ChargeResult | null> => run(() => withAttempt(request, attempt))
      : undefined,
    retrieveCharge: (key: string): Promise<ChargeResult | null> => run(() => rail.retrieveCharge(key)),
    refund: (request: RefundRequest): Promise<RefundResult> => run(() => rail.refund(request)),
  };
}

/**
 * A rail call may take RAIL_TIMEOUT_MS at most, well inside the request's transaction time-out: a call
 * still running when its transaction is rolled back could otherwise charge after the checkout's lock is
 * gone. Past the limit the outcome is unknown (not `notCharged`): the attempt stays pending.
 */
function withTimeLimit<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RailUnavailableError(`no answer within ${env.RAIL_TIMEOUT_MS} ms`)), env.RAIL_TIMEOUT_MS);
  });
  return Promise.race([call, limit]).finally(() => clearTimeout(timer));
}
