// The rate-limit step of the pipeline: take a token for the principal, refuse with 429 when empty,
// and report the bucket in RateLimit-* headers on every limited response.
import { RateLimitedError } from "../errors";
import { getRateLimiter, type TakeResult } from "../rate-limit";
import { clientIpKey } from "./client-ip";

export async function enforceRateLimit(bucketKey: string, headers: Headers): Promise<void> {
  applyTakeResult(await getRateLimiter().take(bucketKey), headers);
}

/** The limit of a caller without a credential: a token from its client IP's bucket. */
export async function limitByClientIp(req: Request, headers: Headers): Promise<void> {
  await enforceRateLimit(clientIpBucket(req), headers);
}

/** The key of the client IP's bucket. */
export function clientIpBucket(req: Request): string {
  return `ip:${clientIpKey(req)}`;
}

/** Reports the bucket in the headers and refuses the request when it was empty. */
export function applyTakeResult(result: TakeResult, headers: Headers): void {
  setRateLimitHeaders(headers, result);
  if (!result.allowed) throw new RateLimitedError(result.retryAfterSeconds);
}

function setRateLimitHeaders(headers: Headers, result: TakeResult): void {
  headers.set("RateLimit-Limit", String(result.limit));
  headers.set("RateLimit-Remaining", String(result.remaining));
  headers.set("RateLimit-Reset", String(result.resetSeconds));
  if (!result.allowed) headers.set("Retry-After", String(result.retryAfterSeconds));
}
