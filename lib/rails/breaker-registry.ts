// The circuit breakers of one process, by key, with bounded memory. Per-tenant breakers (the test rail's,
// one per merchant and mode) would otherwise grow with every merchant that ever called the rail. At most
// `maxSize` are kept, least recently used first out; a breaker that is closed with no failure counted is
// dropped before any other, since a fresh one in its place behaves the same. Only when every breaker kept
// holds state (open, half-open, or failures counted) does the least recently used of them go.
import { CircuitBreaker } from "../circuit-breaker";

export class BreakerRegistry {
  // A Map iterates in insertion order: re-inserting on every use keeps the least recently used first.
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(
    readonly maxSize: number,
    private readonly create: (key: string) => CircuitBreaker,
  ) {}

  get size(): number {
    return this.breakers.size;
  }

  get(key: string): CircuitBreaker {
    const existing = this.breakers.get(key);
    if (existing) {
      this.breakers.delete(key);
      this.breakers.set(key, existing);
      return existing;
    }
    const breaker = this.create(key);
    this.breakers.set(key, breaker);
    if (this.breakers.size > this.maxSize) this.evictOne(key);
    return breaker;
  }

  private evictOne(keep: string): void {
    let victim: string | undefined;
    for (const [key, breaker] of this.breakers) {
      if (key === keep) continue;
      victim ??= key; // the least recently used, if no idle one is found
      if (breaker.idle) {
        victim = key;
        break;
      }
    }
    if (victim !== undefined) this.breakers.delete(victim);
  }
}
