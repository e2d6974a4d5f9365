// npm run receipts:rotate-key (docs/receipts.md): the active key retires and a new one signs from now on. The
// retired key's private half is dropped (it never signs again); its public half stays published for
// RECEIPT_KEY_RETENTION_DAYS, so every receipt it signed still verifies. Rotations are serialized by an advisory
// lock: two at once retire one key each in turn, rather than the second finding no active key to retire.
import type { Db } from "../db";
import { insertActiveKey } from "./signing-key";

const ROTATION_LOCK = "service_signing_keys.rotate";

/** In the caller's transaction: the new key's kid and the one it replaced (null on the very first). */
export async function rotateSigningKey(tx: Db): Promise<{ kid: string; retiredKid: string | null }> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${ROTATION_LOCK}))`;
  const retired = await tx.$queryRaw<{ kid: string }[]>`
    UPDATE service_signing_keys SET active = false, retired_at = now(), private_jwk_ciphertext = NULL
     WHERE active RETURNING kid`;
  await insertActiveKey(tx);
  const key = await tx.serviceSigningKey.findFirstOrThrow({ where: { active: true }, select: { kid: true } });
  return { kid: key.kid, retiredKid: retired[0]?.kid ?? null };
}
