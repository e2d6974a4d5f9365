// x402 header encoding: standard base64 (`+/`, padded) of JSON (docs/x402.md; clients check /^[A-Za-z0-9+/]*={0,2}$/).

/** Longest payment header accepted (a v2 PaymentPayload with an exact EVM authorization is about 1.5 KB). */
export const MAX_PAYMENT_HEADER_CHARS = 16 * 1024;

export function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/** The JSON a payment header carries, or null when it is not standard base64 of JSON. */
export function decodeHeader(header: string): unknown {
  const text = header.trim();
  if (!text || text.length > MAX_PAYMENT_HEADER_CHARS || text.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    return JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    return null;
  }
}
