import { describe, expect, it } from "vitest";
import { describeBucket, refillPerMs } from "../../lib/rate-limit/token-bucket";

const config = { max: 120, windowMs: 60_000 };

describe("token bucket arithmetic", () => {
  it("refills the whole bucket over one window", () => {
    expect(refillPerMs(config) * config.windowMs).toBe(120);
  });

  it("reports remaining whole tokens and the seconds until full", () => {
    const result = describeBucket(config, true, 119);
    expect(result).toMatchObject({ allowed: true, limit: 120, remaining: 119, resetSeconds: 1, retryAfterSeconds: 0 });
    expect(describeBucket(config, true, 0).resetSeconds).toBe(60);
  });

  it("tells a refused caller when one token will be there", () => {
    expect(describeBucket(config, false, 0.2)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    const slow = { max: 10, windowMs: 100_000 }; // one token per 10 s
    expect(describeBucket(slow, false, 0).retryAfterSeconds).toBe(10);
  });
});
