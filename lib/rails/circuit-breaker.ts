// A circuit breaker around a rail. Closed: calls pass; CIRCUIT_FAILURE_THRESHOLD consecutive failures open it.
// Open: calls fail fast (503 CIRCUIT_OPEN) for CIRCUIT_COOLDOWN_MS. Half-open: one trial call passes;
// its success closes the circuit, its failure opens it again.
//
// State is per process (and, for the test rail, per merchant and mode: lib/rails/index.ts), on purpose: a breaker protects this process from waiting on a failing
// dependency, needs no database round trip on the money path, and keeps working when the database is
// the thing in trouble (the approach of Hystrix, resilience4j, opossum). With N instances, each learns of
// an outage after its own few failures, which costs at most N x threshold failed calls.
import { env } from "../env";
import { CircuitOpenError } from "../errors";

export type CircuitState = "closed" | "open" | "half_open";

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
    if (state === "open") throw new CircuitOpenError(`The ${this.name} rail's circuit breaker is open; retry after a short back-off.`);
    const trial = state === "half_open";
    if (trial) {
      if (this.trialInFlight)
        throw new CircuitOpenError(`The ${this.name} rail's circuit breaker is half-open and testing; retry shortly.`);
      this.trialInFlight = true;
      this.state = "half_open";
    }
    try {
      const result = await call();
      this.onSuccess();
      return result;
    } catch (err) {
      if (isFailure(err)) this.onFailure(trial);
      else if (trial) this.onSuccess();
      throw err;
    } finally {
      if (trial) this.trialInFlight = false;
    }
  }

  private onSuccess(): void {
    this.failures = 0;
    this.state = "closed";
  }

  private onFailure(trial: boolean): void {
    this.failures += 1;
    if (trial || this.failures >= this.threshold) {
      this.state = "open";
      this.openedAt = this.now();
    }
  }
}
