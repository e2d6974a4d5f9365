// Forwarding secrets (`whsec_...`, made as webhook signing secrets are): returned once at creation and rotation,
// stored sealed. After a rotation the previous secret signs beside the new one until it expires (Stripe's rolling
// of a webhook secret; default 24 h, 0 ends it at once), so a merchant's server can switch without a refused request.
import { openSecret } from "../crypto/secret-box";
import type { Db } from "../db";
import type { PaidResource } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { newSigningSecret } from "../webhooks/signing-secrets";
import { findPaidResource } from "./get-paid-resource";
import { serializePaidResource } from "./serialize";

/** The secrets a forward is signed with now: the current one, and the previous one while it lasts; none for an old resource. */
export function forwardingSecretsOf(resource: PaidResource, now = new Date()): string[] {
  const secrets = resource.forwardingSecretCiphertext ? [openSecret(resource.forwardingSecretCiphertext)] : [];
  const previous = resource.previousForwardingSecretCiphertext;
  if (previous && resource.previousForwardingSecretExpiresAt && resource.previousForwardingSecretExpiresAt > now)
    secrets.push(openSecret(previous));
  return secrets;
}

/**
 * A new secret; the current one becomes the previous one for `previousSecretExpiresInSeconds`. One UPDATE moves and
 * replaces it (no read-then-write): two rotations at once queue on the row, the later keeping the earlier's secret.
 */
export async function rotateForwardingSecret(tx: Db, scope: Scope, id: string, previousSecretExpiresInSeconds: number) {
  await findPaidResource(tx, scope, id); // 404 for another merchant's or mode's resource
  const { secret, sealed } = newSigningSecret();
  await tx.$executeRaw`
    UPDATE paid_resources
       SET previous_forwarding_secret_ciphertext = forwarding_secret_ciphertext,
           previous_forwarding_secret_expires_at = CASE WHEN forwarding_secret_ciphertext IS NULL THEN NULL
                                                        ELSE now() + ${previousSecretExpiresInSeconds} * interval '1 second' END,
           forwarding_secret_ciphertext = ${sealed},
           updated_at = now()
     WHERE id = ${id}`;
  return serializePaidResource(await findPaidResource(tx, scope, id), secret);
}
