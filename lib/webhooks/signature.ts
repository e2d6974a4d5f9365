// Stripe's signing scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, one v1
// entry per active secret (two during a rotation). Stripe's own verifier accepts it.
import { createHmac } from "node:crypto";

export function signatureHeader(secrets: string[], rawBody: string, timestamp: number): string {
  const signatures = secrets.map((secret) => `v1=${createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex")}`);
  return [`t=${timestamp}`, ...signatures].join(",");
}
