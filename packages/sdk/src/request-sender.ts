// Sends one logical request with retries (stripe-node's RequestSender, simplified): every POST carries an
// Idempotency-Key, the caller's or a generated one, and the SAME key is reused by each retry of it, so a
// retry can never do the work twice. Retried: 409 (the same key still in flight), 429 (after Retry-After),
// 502, 503 and transport failures (no response), with jittered exponential back-off. Never retried: every
// other 4xx, 500, a stored answer replayed for the key (`Idempotent-Replayed: true`), and a caller's abort.
import { ServiceError } from "./errors";
import { attempt, type AttemptResponse, type FetchLike } from "./transport";

export interface RequestSenderOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: FetchLike;
  /** Back-off base and cap in ms (first retry waits about base, doubling up to cap). */
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** Longest Retry-After honoured, in ms (a longer ask ends the retries and surfaces the 429). */
  maxRetryAfterMs: number;
  userAgent?: string;
}

export interface RequestOptions {
  /** Reused across the retries of this request; generated for a POST when absent. */
  idempotencyKey?: string;
  /** Per-request overrides. */
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

const RETRYABLE_STATUSES = new Set([409, 429, 502, 503]);

export function isRetryable(err: ServiceError): boolean {
  if (err.status === 0) return err.code === "timeout" || err.code === "network_error";
  // A replayed answer is the stored, final result of this key (e.g. a 409 for an expired checkout).
  if (err.idempotentReplayed) return false;
  return RETRYABLE_STATUSES.has(err.status);
}

/** Full-jitter exponential back-off: a random wait in [delay/2, delay], delay = base * 2^retry, capped. */
export function backoffDelayMs(retry: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const delay = Math.min(capMs, baseMs * 2 ** retry);
  return Math.round(delay / 2 + random() * (delay / 2));
}

export function generateIdempotencyKey(): string {
  return `sdk_${globalThis.crypto.randomUUID()}`;
}

export class RequestSender {
  constructor(private readonly options: RequestSenderOptions) {}

  async send<T>(method: HttpMethod, path: string, body?: unknown, options: RequestOptions = {}): Promise<AttemptResponse<T>> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      Authorization: `Bearer ${this.options.apiKey}`,
      ...(this.options.userAgent ? { "User-Agent": this.options.userAgent } : {}),
      ...options.headers,
    };
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["Content-Type"] = "application/json";
    }
    if (method === "POST") headers["Idempotency-Key"] = options.idempotencyKey ?? generateIdempotencyKey();
    else if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;

    const maxRetries = options.maxRetries ?? this.options.maxRetries;
    const url = `${this.options.baseUrl}${path}`;
    for (let retry = 0; ; retry++) {
      try {
        return await attempt<T>({
          method,
          url,
          headers,
          body: payload,
          timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
          signal: options.signal,
          fetch: this.options.fetch,
        });
      } catch (err) {
        if (!ServiceError.is(err) || retry >= maxRetries || !isRetryable(err)) throw err;
        const wait = this.retryWaitMs(err, retry);
        if (wait === null) throw err;
        await sleep(wait, options.signal);
      }
    }
  }

  /** The wait before the next attempt, or null when the server asked for longer than we are willing to wait. */
  private retryWaitMs(err: ServiceError, retry: number): number | null {
    const backoff = backoffDelayMs(retry, this.options.initialRetryDelayMs, this.options.maxRetryDelayMs);
    if (err.retryAfterSeconds === undefined) return backoff;
    const asked = err.retryAfterSeconds * 1000;
    if (asked > this.options.maxRetryAfterMs) return null;
    // Honour the server's ask, plus a little jitter so that many clients do not return in lockstep.
    return Math.ceil(asked + Math.random() * Math.min(backoff, 250));
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted)
      return reject(
        new ServiceError({ code: "aborted", status: 0, message: "The request was aborted by the caller.", cause: signal.reason }),
      );
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ServiceError({ code: "aborted", status: 0, message: "The request was aborted by the caller.", cause: signal?.reason }));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
