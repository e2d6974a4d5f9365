// The service's signing key (docs/receipts.md): one active ES256 key for the whole deployment, which signs every
// receipt and x402 offer-receipt. The first is made by whichever process signs first: each process that finds none
// inserts one ON CONFLICT DO NOTHING (the partial unique index admits one active key), then reads the one that
// won, so concurrent first uses in any number of processes agree on one key.
import { newSealedKeyPair, openPrivateKey, SIGNING_ALG } from "../crypto/signing-key-pair";
import { sqlIn, statement, type Db } from "../db";

export interface ServiceSigningKey {
  kid: string;
  alg: typeof SIGNING_ALG;
  privateKey: CryptoKey;
}

const INSERT_ACTIVE_KEY = statement(
  "service_signing_key_insert_active",
  `INSERT INTO service_signing_keys (kid, public_jwk, private_jwk_ciphertext, active)
   VALUES ($1, $2::jsonb, $3, true) ON CONFLICT DO NOTHING`,
);

/** A new active key, unless another is active (then nothing: the index refuses a second). Any transaction, pg's too. */
export async function insertActiveKey(db: Db): Promise<void> {
  const pair = await newSealedKeyPair();
  await sqlIn(db).count(INSERT_ACTIVE_KEY, [pair.kid, JSON.stringify(pair.publicJwk), pair.sealedPrivateJwk]);
}

/** The active key's row (ActiveKeyRow): a statement of its own, or a subquery of another (x402's sale, row_to_json). */
export const ACTIVE_KEY_TEXT = `SELECT kid, private_jwk_ciphertext AS "privateJwkCiphertext" FROM service_signing_keys WHERE active LIMIT 1`;
const ACTIVE_KEY = statement("service_signing_key_active", ACTIVE_KEY_TEXT);

/** The active key's row: its kid and sealed private half (the SELECT of ACTIVE_KEY, or a statement joining it). */
export interface ActiveKeyRow {
  kid: string;
  privateJwkCiphertext: string | null;
}

async function activeKeyRow(db: Db): Promise<ActiveKeyRow | null> {
  const [row] = await sqlIn(db).rows<ActiveKeyRow>(ACTIVE_KEY, []);
  return row ?? null;
}

/**
 * Private keys opened in this process, by kid: opening one (decrypting and importing it) costs more CPU than the
 * signature. Which key is active is read on every use, so a rotation takes effect at once in every process.
 */
const opened = new Map<string, Promise<CryptoKey>>();
const MAX_OPENED = 8;

function openOnce(kid: string, sealed: string): Promise<CryptoKey> {
  let key = opened.get(kid);
  if (!key) {
    if (opened.size >= MAX_OPENED) opened.clear(); // a few rotations' worth; retired keys are never used again
    key = openPrivateKey(sealed);
    opened.set(kid, key);
    key.catch(() => opened.delete(kid));
  }
  return key;
}

/**
 * The active key's row, the first key made when none is active yet. `read`: its row, read already by the caller's own
 * statement (null when no key is active yet): no statement of its own then.
 */
export async function activeKeyRowMade(db: Db, read?: ActiveKeyRow | null): Promise<ActiveKeyRow> {
  let row = read ?? (await activeKeyRow(db));
  if (!row) {
    await insertActiveKey(db);
    row = await activeKeyRow(db);
    if (!row) throw new Error("No active service signing key after inserting one");
  }
  return row;
}

/** An active key's row opened for signing (an active key always has its private half: a CHECK in the migration). */
export async function openedSigningKey(row: ActiveKeyRow): Promise<ServiceSigningKey> {
  return { kid: row.kid, alg: SIGNING_ALG, privateKey: await openOnce(row.kid, row.privateJwkCiphertext!) };
}

/** The active key, made on first use (`read`: as activeKeyRowMade's). */
export async function activeSigningKey(db: Db, read?: ActiveKeyRow | null): Promise<ServiceSigningKey> {
  return openedSigningKey(await activeKeyRowMade(db, read));
}
