// The public keys that verify the service's receipts (docs/receipts.md): the active key and every key retired
// within RECEIPT_KEY_RETENTION_DAYS, newest first. GET /.well-known/jwks.json lists them as a JWK Set (RFC 7517),
// GET /.well-known/did.json as the verification methods of the deployment's did:web document.
import type { JWK } from "jose";
import type { Db } from "../db";
import { env } from "../env";
import { activeSigningKey } from "./signing-key";

/** The published keys; the first request of a deployment without a key makes its first one. */
export async function publishedKeys(db: Db): Promise<JWK[]> {
  await activeSigningKey(db);
  const since = new Date(Date.now() - env.RECEIPT_KEY_RETENTION_DAYS * 86_400_000);
  const rows = await db.serviceSigningKey.findMany({
    where: { OR: [{ active: true }, { retiredAt: { gt: since } }] },
    orderBy: { createdAt: "desc" },
    select: { publicJwk: true },
  });
  return rows.map((row) => row.publicJwk as JWK);
}

/** GET /.well-known/jwks.json. */
export async function receiptJwks(db: Db): Promise<{ keys: JWK[] }> {
  return { keys: await publishedKeys(db) };
}
