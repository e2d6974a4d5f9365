// What a caller may see: one merchant, one mode. Every domain query filters by both, so another
// merchant's object, or one of the other mode, is simply not found (404, never 403).
export interface Scope {
  merchantId: string;
  livemode: boolean;
}

/** A caller with an API key: its scope, and the key (Idempotency-Keys and request keys are scoped per key). */
export interface Caller extends Scope {
  apiKeyId: string;
  /** A restricted key's grants (resource -> "read" | "write"); null or absent for a secret key (full access). */
  permissions?: Record<string, string> | null;
}
