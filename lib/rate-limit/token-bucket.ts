// Token bucket shared by both backends (docs/api-reference.md "Rate limits"): `max` tokens, refilled evenly over `windowMs`,
// bursts up to `max`. Each request takes one token or is refused.

export interface BucketConfig {
  max: number;
  windowMs: number;
}

export interface TakeResult {
  allowed: boolean;
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is available (set when refused). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(key: string): Promise<TakeResult>;
}

export function refillPerMs(config: BucketConfig): number {
  return config.max / config.windowMs;
}

/** Turns the bucket's state after an attempt into the numbers the headers report. */
export function describeBucket(config: BucketConfig, allowed: boolean, tokensLeft: number): TakeResult {
  const perMs = refillPerMs(config);
  return {
    allowed,
    limit: config.max,
    remaining: Math.max(0, Math.floor(tokensLeft)),
    resetSeconds: Math.ceil((config.max - tokensLeft) / perMs / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokensLeft) / perMs / 1000)),
  };
}
