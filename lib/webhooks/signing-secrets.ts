// Webhook signing secrets: `whsec_...`, returned once, stored sealed. During a rotation the previous
// secret signs beside the new one for ROTATION_OVERLAP_MS, so receivers can switch without a gap.
import { sealSecret } from "../crypto/secret-box";
import { randomBase62 } from "../ids";

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function newSigningSecret(): { secret: string; sealed: string } {
  const secret = `whsec_${randomBase62(32)}`;
  return { secret, sealed: sealSecret(secret) };
}
