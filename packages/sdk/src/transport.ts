// One HTTP attempt: fetch with a time-out and an optional caller AbortSignal; every failure becomes a
// ServiceError (status 0 and code timeout | aborted | network_error when no response arrived).
import { errorFromResponse, ServiceError } from "./errors";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface AttemptRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  fetch: FetchLike;
}

export interface AttemptResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export async function attempt<T>(req: AttemptRequest): Promise<AttemptResponse<T>> {
  if (req.signal?.aborted) throw abortedError(req.signal.reason);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  const onCallerAbort = () => controller.abort();
  req.signal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    const res = await req.fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: controller.signal });
    const text = await res.text();
    const body = parseJson(text);
    if (res.status < 200 || res.status >= 300) throw errorFromResponse(res.status, body, res.headers);
    return { status: res.status, body: body as T, headers: res.headers };
  } catch (err) {
    if (ServiceError.is(err)) throw err;
    if (timedOut) {
      throw new ServiceError({
        code: "timeout",
        status: 0,
        message: `No response from ${req.method} ${req.url} within ${req.timeoutMs} ms.`,
        cause: err,
      });
    }
    if (req.signal?.aborted) throw abortedError(req.signal.reason ?? err);
    throw new ServiceError({
      code: "network_error",
      status: 0,
      message: `Could not reach ${req.method} ${req.url}: ${describe(err)}`,
      cause: err,
    });
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener("abort", onCallerAbort);
  }
}

function abortedError(cause: unknown): ServiceError {
  return new ServiceError({ code: "aborted", status: 0, message: "The request was aborted by the caller.", cause });
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? ` (${(cause as { code?: string }).code ?? cause.message})` : "";
    return `${err.message}${causeText}`;
  }
  return String(err);
}
