// Webhook signing secrets: `whsec_...`, returned once, stored sealed. During a rotation the previous
// secret signs beside the new one for ROTATION_OVERLAP_MS, so receivers can switch without a gap.
import { openSecret, sealSecret } from "../crypto/secret-box";
import type { WebhookEndpoint } from "../generated/prisma/client";
import { randomBase62 } from "../ids";

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function newSigningSecret(): { secret: string; sealed: string } {
  const secret = `whsec_${randomBase62(32)}`;
  return { secret, sealed: sealSecret(secret) };
}

/** The secrets a delivery is signed with right now: the current one, then the previous while it overlaps. */
export function activeSigningSecrets(
  endpoint: Pick<WebhookEndpoint, "secretCiphertext" | "previousSecretCiphertext" | "previousSecretExpiresAt">,
  now = new Date(),
): string[] {
  const secrets = [openSecret(endpoint.secretCiphertext)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(openSecret(endpoint.previousSecretCiphertext));
  }
  return secrets;
}
