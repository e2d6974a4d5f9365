import { describe, expect, it } from "vitest";
import { CircuitOpenError } from "../../lib/errors";
import { BreakerRegistry } from "../../lib/rails/breaker-registry";
import { CircuitBreaker } from "../../lib/circuit-breaker";

const fail = () => Promise.reject(new Error("down"));
const ok = () => Promise.resolve("ok");

describe("CircuitBreaker", () => {
  it("opens after the threshold of consecutive failures, fails fast, half-opens after the cool-down", async () => {
    let now = 0;
    const breaker = new CircuitBreaker("x", 3, 1000, () => now);
    for (let i = 0; i < 3; i++) await expect(breaker.run(fail, () => true)).rejects.toThrow("down");
    expect(breaker.currentState).toBe("open");
    let called = false;
    await expect(
      breaker.run(
        async () => ((called = true), "x"),
        () => true,
      ),
    ).rejects.toBeInstanceOf(CircuitOpenError);
    expect(called).toBe(false);
    now = 1000;
    expect(breaker.currentState).toBe("half_open");
    await expect(breaker.run(ok, () => true)).resolves.toBe("ok");
    expect(breaker.currentState).toBe("closed");
  });

  it("a success resets the count; a failed trial re-opens at once; one trial at a time", async () => {
    let now = 0;
    const breaker = new CircuitBreaker("x", 2, 500, () => now);
    await expect(breaker.run(fail, () => true)).rejects.toThrow();
    await breaker.run(ok, () => true);
    await expect(breaker.run(fail, () => true)).rejects.toThrow();
    expect(breaker.currentState).toBe("closed");
    await expect(breaker.run(fail, () => true)).rejects.toThrow();
    expect(breaker.currentState).toBe("open");
    now = 600;
    let release!: () => void;
    const trial = breaker.run(
      () => new Promise<string>((resolve) => (release = () => resolve("late"))),
      () => true,
    );
    await expect(breaker.run(ok, () => true)).rejects.toBeInstanceOf(CircuitOpenError);
    release();
    await expect(trial).resolves.toBe("late");
    expect(breaker.currentState).toBe("closed");
    await expect(breaker.run(fail, () => true)).rejects.toThrow();
    await expect(breaker.run(fail, () => true)).rejects.toThrow();
    now = 1200;
    await expect(breaker.run(fail, () => true)).rejects.toThrow();
    expect(breaker.currentState).toBe("open");
  });

  it("tells its hooks once per outage; a call that began before it opened neither closes nor re-opens it", async () => {
    let now = 0;
    const events: string[] = [];
    const breaker = new CircuitBreaker("db", 1, 100, () => now, {
      refusal: (testing) => new Error(testing ? "testing" : "open"),
      onOpen: (err) => events.push(`open: ${(err as Error).message}`),
      onClose: () => events.push("closed"),
    });
    let finishEarly!: () => void;
    const early = breaker.run(
      () => new Promise<string>((resolve) => (finishEarly = () => resolve("early"))),
      () => true,
    );
    await expect(breaker.run(fail, () => true)).rejects.toThrow("down");
    await expect(breaker.run(ok, () => true)).rejects.toThrow("open");
    finishEarly();
    await expect(early).resolves.toBe("early");
    expect(breaker.currentState).toBe("open"); // the early success says nothing new
    now = 100;
    await expect(breaker.run(fail, () => true)).rejects.toThrow("down"); // a failed trial re-opens, silently
    now = 200;
    await expect(breaker.run(ok, () => true)).resolves.toBe("ok");
    expect(events).toEqual(["open: down", "closed"]);
  });

  it("errors that are not failures (declines) neither count nor open it", async () => {
    const breaker = new CircuitBreaker("x", 1, 1000, () => 0);
    await expect(
      breaker.run(
        () => Promise.reject(new Error("declined")),
        () => false,
      ),
    ).rejects.toThrow("declined");
    expect(breaker.currentState).toBe("closed");
  });
});

describe("BreakerRegistry (one breaker per merchant and mode, bounded)", () => {
  const make = () => new BreakerRegistry(3, () => new CircuitBreaker("test", 1, 60_000));
  const trip = (breaker: CircuitBreaker) => expect(breaker.run(fail, () => true)).rejects.toThrow("down");

  it("keeps one breaker per key: the same one comes back, another key gets its own", async () => {
    const registry = make();
    const a = registry.get("test:mer_a:test");
    await trip(a);
    expect(registry.get("test:mer_a:test")).toBe(a);
    expect(registry.get("test:mer_a:test").currentState).toBe("open");
    expect(registry.get("test:mer_b:test").currentState).toBe("closed");
    expect(registry.get("test:mer_a:live").currentState).toBe("closed");
  });

  it("never holds more than its maximum; idle (closed, no failures) breakers go first, then the least recently used", async () => {
    const registry = make();
    const open = registry.get("open");
    await trip(open);
    registry.get("idle-1");
    registry.get("idle-2");
    for (let i = 0; i < 100; i++) registry.get(`new-${i}`);
    expect(registry.size).toBe(3);
    expect(registry.get("open")).toBe(open); // survived every eviction: idle ones went first
    expect(open.currentState).toBe("open");

    const full = new BreakerRegistry(2, () => new CircuitBreaker("test", 1, 60_000));
    const first = full.get("first");
    const second = full.get("second");
    await trip(first);
    await trip(second);
    full.get("third"); // nothing idle but the new one: the least recently used goes
    expect(full.size).toBe(2);
    expect(full.get("second")).toBe(second);
    expect(full.get("first")).not.toBe(first);
  });
});
