// ServiceClient: typed access to the /v1 API (docs/api-reference.md) with idempotent retries (see request-sender.ts).
import { RequestSender, type HttpMethod, type RequestOptions } from "./request-sender";
import { ServiceResources } from "./generated/resources";
import type { FetchLike } from "./transport";

export interface ServiceClientOptions {
  /** The service's address, e.g. `https://payments.example.com` (no trailing `/v1`). */
  baseUrl: string;
  /** `sk_test_...` or `sk_live_...`, or a restricted key `rk_test_...` / `rk_live_...` (only what its permissions grant). */
  apiKey: string;
  /** Per attempt, including reading the body. Default 30,000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** First back-off delay, doubled per retry with jitter. Default 500 ms; capped at maxRetryDelayMs (default 8,000 ms). */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Longest Retry-After the client waits for before giving up and throwing the 429. Default 60,000 ms. */
  maxRetryAfterMs?: number;
}

/**
 * The API's resources (`client.customers.create(...)`, generated from the API's operations: generated/resources.ts)
 * over one RequestSender, plus request() for any path.
 */
export class ServiceClient extends ServiceResources {
  readonly baseUrl: string;
  private readonly sender: RequestSender;

  constructor(options: ServiceClientOptions) {
    if (!options || typeof options.baseUrl !== "string" || !options.baseUrl) throw configError("ServiceClient needs a baseUrl.");
    if (typeof options.apiKey !== "string" || !options.apiKey) throw configError("ServiceClient needs an apiKey.");
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== "function") throw configError("No fetch implementation: pass options.fetch.");
    const baseUrl = options.baseUrl.replace(/\/+$/, "");
    const sender = new RequestSender({
      baseUrl,
      apiKey: options.apiKey,
      timeoutMs: nonNegative(options.timeoutMs, 30_000, "timeoutMs"),
      maxRetries: nonNegative(options.maxRetries, 2, "maxRetries"),
      fetch: fetchImpl,
      initialRetryDelayMs: nonNegative(options.initialRetryDelayMs, 500, "initialRetryDelayMs"),
      maxRetryDelayMs: nonNegative(options.maxRetryDelayMs, 8_000, "maxRetryDelayMs"),
      maxRetryAfterMs: nonNegative(options.maxRetryAfterMs, 60_000, "maxRetryAfterMs"),
      userAgent: "agent-payments-sdk",
    });
    super(
      async <R>(method: HttpMethod, path: string, body?: unknown, requestOptions?: RequestOptions) =>
        (await sender.send<R>(method, path, body, requestOptions)).body,
    );
    this.baseUrl = baseUrl;
    this.sender = sender;
  }

  /** Any /v1 request; resolves to the parsed JSON body of a 2xx, throws ServiceError otherwise. */
  async request<T>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await this.sender.send<T>(method, path, body, options)).body;
  }

  /** Like request(), but also returns the status and headers (e.g. to tell 201 from 200, or see Idempotent-Replayed). */
  requestWithResponse<T>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions) {
    return this.sender.send<T>(method, path, body, options);
  }
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw configError(`ServiceClient option ${name} must be a non-negative number.`);
  return value;
}

/** A configuration mistake is a programming error, thrown at construction: a TypeError, not a ServiceError. */
function configError(message: string): TypeError {
  return new TypeError(message);
}
