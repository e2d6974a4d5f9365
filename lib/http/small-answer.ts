// Next.js gzips every answer it streams, whatever its size: its compression middleware decides before it has seen
// the body's length. For an answer of a few hundred bytes that costs about 0.5 ms of the server's CPU and 0.3 ms of
// the client's, to save a few hundred bytes (docs/BENCHMARKS.md, "Where the paid call's time goes"). An answer
// smaller than this carries `Cache-Control: no-transform`, which that middleware honours (as do proxies): it is
// sent as it is. Larger answers (lists, documents) are still compressed for a client that asks. The request pipeline's
// answers, /health and /ready take the rule; a paid resource's content says no-store, no-transform when small
// (lib/paid-sale/sell-paid-resource.ts).
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Marks the answer no-transform when its body is too small to be worth compressing. An answer with a Cache-Control
 * of its own keeps it as it is (the OAuth token endpoint's `no-store`, which clients compare whole): it may be gzipped.
 */
export function keepSmallAnswerUncompressed(headers: Headers, body: string | Uint8Array | null | undefined): void {
  if (!headers.has("Cache-Control") && isSmallAnswer(body)) headers.set("Cache-Control", "no-transform");
}

/** Whether an answer's body is too small to be worth compressing. */
export function isSmallAnswer(body: string | Uint8Array | null | undefined): boolean {
  const bytes = typeof body === "string" ? Buffer.byteLength(body) : (body?.byteLength ?? 0);
  return bytes < COMPRESS_FROM_BYTES;
}

/** A JSON answer of a route outside the request pipeline (/health, /ready), under the same rule. */
export function jsonAnswer(body: unknown, status = 200): Response {
  const text = JSON.stringify(body);
  const headers = new Headers({ "Content-Type": "application/json" });
  keepSmallAnswerUncompressed(headers, text);
  return new Response(text, { status, headers });
}
