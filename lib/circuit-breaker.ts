// A circuit breaker around a dependency (a rail; the database's connections, lib/db-availability.ts).
// Closed: calls pass; `threshold` consecutive failures open it. Open: calls fail fast (503 CIRCUIT_OPEN) for
// `cooldownMs`. Half-open: one trial call passes; its success closes the circuit, its failure opens it again.
// Only a trial closes an open circuit: a call that began before it opened and succeeds after says nothing new.
//
// State is per process (and, for the test rail, per merchant and mode: lib/rails/index.ts), on purpose: a breaker protects this process from waiting on a failing
// dependency, needs no database round trip on the money path, and keeps working when the database is
// the thing in trouble (the approach of Hystrix, resilience4j, opossum). With N instances, each learns of
// an outage after its own few failures, which costs at most N x threshold failed calls.
import { env } from "./env";
import { CircuitOpenError } from "./errors";

export type CircuitState = "closed" | "open" | "half_open";

export interface BreakerHooks {
  /** The fast fail's error (default: CircuitOpenError naming the rail); `testing`: half-open with its trial running. */
  refusal?: (testing: boolean) => Error;
  /** Closed -> open, with the failure that opened it (not called when a failed trial re-opens it). */
  onOpen?: (err: unknown) => void;
  /** Open -> closed: a trial succeeded. */
  onClose?: () => void;
}

export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private state: CircuitState = "closed";
  private trialInFlight = false;

  constructor(
    readonly name: string,
    private readonly threshold = env.CIRCUIT_FAILURE_THRESHOLD,
    private readonly cooldownMs = env.CIRCUIT_COOLDOWN_MS,
    private readonly now: () => number = Date.now,
    private readonly hooks: BreakerHooks = {},
  ) {}

  /** Closed with no failure counted and no trial running: a fresh breaker would behave the same. */
  get idle(): boolean {
    return this.state === "closed" && this.failures === 0 && !this.trialInFlight;
  }

  get currentState(): CircuitState {
    if (this.state === "open" && this.now() - this.openedAt >= this.cooldownMs) return "half_open";
    return this.state;
  }

  /** Runs `call` through the breaker. `isFailure` tells an upstream failure from an answer (a decline is an answer). */
  async run<T>(call: () => Promise<T>, isFailure: (err: unknown) => boolean): Promise<T> {
    const state = this.currentState;
    if (state === "open") throw this.refusal(false);
    const trial = state === "half_open";
    if (trial) {
      if (this.trialInFlight) throw this.refusal(true);
      this.trialInFlight = true;
      this.state = "half_open";
    }
    try {
      const result = await call();
      this.onSuccess(trial);
      return result;
    } catch (err) {
      if (isFailure(err)) this.onFailure(trial, err);
      else if (trial) this.onSuccess(trial);
      throw err;
    } finally {
      if (trial) this.trialInFlight = false;
    }
  }

  private refusal(testing: boolean): Error {
    if (this.hooks.refusal) return this.hooks.refusal(testing);
    return new CircuitOpenError(
      testing
        ? `The ${this.name} rail's circuit breaker is half-open and testing; retry shortly.`
        : `The ${this.name} rail's circuit breaker is open; retry after a short back-off.`,
    );
  }

  private onSuccess(trial: boolean): void {
    if (this.state !== "closed" && !trial) return; // began before the circuit opened
    const reopened = this.state !== "closed";
    this.failures = 0;
    this.state = "closed";
    if (reopened) this.hooks.onClose?.();
  }

  private onFailure(trial: boolean, err: unknown): void {
    if (this.state !== "closed" && !trial) return; // began before the circuit opened: already open
    this.failures += 1;
    if (trial || this.failures >= this.threshold) {
      const opening = this.state === "closed";
      this.state = "open";
      this.openedAt = this.now();
      if (opening) this.hooks.onOpen?.(err);
    }
  }
}
