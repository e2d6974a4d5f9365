// The hand-written part of the resource methods (the methods themselves are generated/resources.ts, made from
// the API's operations): the sender they call, and how a path id and a list's query are written.
import type { HttpMethod, RequestOptions } from "./request-sender";

/** One request through the RequestSender, which adds the API key, the Idempotency-Key of every POST, the time-out and the retries. */
export type Send = <R>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions) => Promise<R>;

/** A path id, percent-encoded so that it stays one path segment (a `/` or `?` in it cannot change the path). */
export const segment = (value: string) => encodeURIComponent(value);

/** `?limit=..&startingAfter=..&...` from defined values only. */
export function query(params: object = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
