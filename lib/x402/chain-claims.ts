// The claim of a live x402 authorization (x402_authorizations, unique on network + token + payer + nonce): made in
// the transaction that opens its PaymentIntent (settle-on-chain.ts), it is what makes the authorization broadcast
// at most once across processes, retries and crashes:
//   - a broadcast needs the claim's lease (taken with the claim, or again only once the last one ran out with
//     nothing sent), identified by its token;
//   - the transaction is signed first and its hash recorded with a statement that succeeds only for the lease's
//     holder, while the lease runs, and only once (write-ahead): only then is it sent. So at most one transaction
//     is ever sent for a claim, and the books always know it;
//   - a refusal of the chain before anything was sent is recorded, so that nothing is sent later.
import { randomBytes } from "node:crypto";
import { sqlIn, statement, type Db } from "../db";
import { env } from "../env";
import type { VerifiedPayment } from "./check-payment";
import type { ClaimOfPayment, PaymentIdentity } from "./replays";

/** The claim's key: the authorization's own identity (lower-case hex). */
export interface ClaimKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

export interface Claim extends ClaimKey, ClaimOfPayment {
  value: string;
  transactionHash: `0x${string}` | null;
  refusalReason: string | null;
  /** Unix seconds: after this an authorization that was not used can never be. */
  validBefore: bigint | null;
  /** Whether a broadcast lease is running (someone may be sending it right now). */
  leased: boolean;
}

/** How long one process may take to verify and send an authorization it holds the lease of. */
export const BROADCAST_LEASE_SECONDS = 120;

export function claimKeyOf(payment: VerifiedPayment): ClaimKey {
  return {
    network: payment.network.caip2,
    asset: payment.network.asset.toLowerCase(),
    payer: payment.payer.toLowerCase(),
    nonce: payment.authorization.nonce.toLowerCase(),
  };
}

/** The rail's charge key of a claim (`x402:<network>:<asset>:<payer>:<nonce>`; the network has a colon of its own). */
export function chargeKeyOf(key: ClaimKey): string {
  return `x402:${key.network}:${key.asset}:${key.payer}:${key.nonce}`;
}

export function claimKeyFromChargeKey(chargeKey: string): ClaimKey | null {
  const parts = chargeKey.split(":");
  if (parts[0] !== "x402" || parts.length < 5) return null;
  const [asset, payer, nonce] = parts.slice(-3);
  return { network: parts.slice(1, -3).join(":"), asset, payer, nonce };
}

/** A broadcast lease's token. */
export const newToken = () => randomBytes(12).toString("hex");

/** The claim, inserted with the first broadcast lease (its token); null when the authorization was claimed already. */
export async function insertClaim(
  tx: Db,
  key: ClaimKey,
  merchant: { merchantId: string; livemode: boolean },
  payment: VerifiedPayment,
  identity: PaymentIdentity,
): Promise<string | null> {
  const token = newToken();
  const inserted = await tx.$executeRaw`
    INSERT INTO x402_authorizations (network, asset, payer, nonce, merchant_id, livemode, value, valid_before, broadcast_token, broadcast_until,
                                     payload_hash, payment_identifier)
    VALUES (${key.network}, ${key.asset}, ${key.payer}, ${key.nonce}, ${merchant.merchantId}, ${merchant.livemode},
            ${payment.authorization.value}, ${BigInt(payment.authorization.validBefore)}, ${token},
            now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS}), ${identity.payloadHash}, ${identity.paymentIdentifier})
    ON CONFLICT DO NOTHING`;
  return inserted === 1 ? token : null;
}

// A prepared statement: test mode's settlement reads it in a plain pg transaction (pgTransaction, lib/db.ts).
const READ_CLAIM = statement(
  "x402_claim_read",
  `SELECT network, asset, payer, nonce, merchant_id AS "merchantId", livemode, value, payment_intent_id AS "paymentIntentId",
          transaction_hash AS "transactionHash", refusal_reason AS "refusalReason", valid_before::text AS "validBefore",
          coalesce(broadcast_until > now(), false) AS leased, payload_hash AS "payloadHash",
          payment_identifier AS "paymentIdentifier", created_at > now() - make_interval(secs => $5) AS recent
     FROM x402_authorizations
    WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4`,
);

export async function readClaim(db: Db, key: ClaimKey): Promise<Claim | null> {
  const [row] = await sqlIn(db).rows<Omit<Claim, "validBefore"> & { validBefore: string | null }>(READ_CLAIM, [
    key.network,
    key.asset,
    key.payer,
    key.nonce,
    env.PAID_REPLAY_WINDOW_SECONDS,
  ]);
  return row ? { ...row, validBefore: row.validBefore === null ? null : BigInt(row.validBefore) } : null;
}

export async function setClaimPaymentIntent(tx: Db, key: ClaimKey, paymentIntentId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE x402_authorizations SET payment_intent_id = ${paymentIntentId}
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}`;
}

/** A new lease for a claim nothing was sent for and nobody holds: its token when this caller may broadcast it. */
export async function takeBroadcastLease(db: Db, key: ClaimKey): Promise<string | null> {
  const token = newToken();
  const taken = await db.$executeRaw`
    UPDATE x402_authorizations SET broadcast_token = ${token}, broadcast_until = now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS})
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}
       AND transaction_hash IS NULL AND refusal_reason IS NULL AND (broadcast_until IS NULL OR broadcast_until <= now())`;
  return taken === 1 ? token : null;
}

/** The lease given back (nothing was sent): a retry of the same payment may broadcast it at once. */
export async function releaseBroadcastLease(db: Db, key: ClaimKey, token: string): Promise<void> {
  await db.$executeRaw`
    UPDATE x402_authorizations SET broadcast_until = NULL
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}
       AND broadcast_token = ${token} AND transaction_hash IS NULL`;
}

/**
 * The signed transaction's hash, recorded BEFORE it is sent: only by the lease's holder, while the lease runs,
 * with nothing recorded or refused yet. false: it must not be sent (the lease ran out, or another took over).
 */
export async function recordBeforeSending(db: Db, key: ClaimKey, token: string, hash: string): Promise<boolean> {
  const recorded = await db.$executeRaw`
    UPDATE x402_authorizations SET transaction_hash = ${hash.toLowerCase()}
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}
       AND broadcast_token = ${token} AND broadcast_until > now() AND transaction_hash IS NULL AND refusal_reason IS NULL`;
  return recorded === 1;
}

/** The transaction the chain says used the authorization, when none was recorded (sent by a process that died, or elsewhere). */
export async function adoptTransaction(db: Db, key: ClaimKey, hash: string): Promise<void> {
  await db.$executeRaw`
    UPDATE x402_authorizations SET transaction_hash = ${hash.toLowerCase()}
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce} AND transaction_hash IS NULL`;
}

/**
 * The chain refused the authorization and nothing was sent for it: no broadcast may follow. `abandoned`: only
 * when no lease runs either (the tick's decision about a claim whose sender died). false: not recorded.
 */
export async function refuseUnsent(db: Db, key: ClaimKey, reason: string, abandoned = false): Promise<boolean> {
  const recorded = await db.$executeRaw`
    UPDATE x402_authorizations SET refusal_reason = ${reason}, broadcast_until = NULL
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}
       AND refusal_reason IS NULL AND transaction_hash IS NULL
       AND (${!abandoned} OR broadcast_until IS NULL OR broadcast_until <= now())`;
  return recorded === 1;
}

/** The authorization can no longer execute (past its validBefore, unused) although a transaction was recorded for it. */
export async function refuseSent(db: Db, key: ClaimKey, reason: string): Promise<void> {
  await db.$executeRaw`
    UPDATE x402_authorizations SET refusal_reason = ${reason}, broadcast_until = NULL
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce} AND refusal_reason IS NULL`;
}
