import { describe, expect, it } from "vitest";
import { CircuitOpenError } from "../../lib/errors";
import { CircuitBreaker } from "../../lib/rails/circuit-breaker";

const fail = () => Promise.reject(new Error("down"));
const ok = () => Promise.resolve("ok");

describe("CircuitBreaker", () => {
  it("opens after the threshold of consecutive failures, fails fast, half-opens after the cool-down", async () => {
    let now = 0;
    const breaker = new CircuitBreaker("x", 3, 1000, () => now);
    for (let i = 0; i < 3; i++) await expect(breaker.run(fail, () => true)).rejects.toThrow("down");
    expect(breaker.currentState).toBe("open");
    let called = false;
    await expect(breaker.run(async () => ((called = true), "x"), () => true)).rejects.toBeInstanceOf(CircuitOpenError);
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
    const trial = breaker.run(() => new Promise<string>((resolve) => (release = () => resolve("late"))), () => true);
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

  it("errors that are not failures (declines) neither count nor open it", async () => {
    const breaker = new CircuitBreaker("x", 1, 1000, () => 0);
    await expect(breaker.run(() => Promise.reject(new Error("declined")), () => false)).rejects.toThrow("declined");
    expect(breaker.currentState).toBe("closed");
  });
});
