// The claim of a live x402 authorization (x402_authorizations, unique on network + token + payer + nonce): made in
// the transaction that opens its PaymentIntent (settle-on-chain.ts), it is what makes the authorization broadcast
// at most once across processes, retries and crashes. A broadcast needs the claim's lease (taken with the claim,
// or again only once the last one ran out with nothing sent); the transaction's hash is recorded the moment it is
// sent, before anything waits on it; a refusal of the chain (nothing sent) is recorded so that nothing is sent later.
import type { Db } from "../db";
import type { VerifiedPayment } from "./check-payment";

/** The claim's key: the authorization's own identity (lower-case hex). */
export interface ClaimKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

export interface Claim extends ClaimKey {
  merchantId: string;
  value: string;
  paymentIntentId: string | null;
  transactionHash: `0x${string}` | null;
  refusalReason: string | null;
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

/** The claim, inserted with the first broadcast lease; false when the authorization was claimed already. */
export async function insertClaim(tx: Db, key: ClaimKey, merchant: { merchantId: string; livemode: boolean }, value: string) {
  const inserted = await tx.$executeRaw`
    INSERT INTO x402_authorizations (network, asset, payer, nonce, merchant_id, livemode, value, broadcast_until)
    VALUES (${key.network}, ${key.asset}, ${key.payer}, ${key.nonce}, ${merchant.merchantId}, ${merchant.livemode}, ${value},
            now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS}))
    ON CONFLICT DO NOTHING`;
  return inserted === 1;
}

export async function readClaim(db: Db, key: ClaimKey): Promise<Claim | null> {
  const rows = await db.$queryRaw<Claim[]>`
    SELECT network, asset, payer, nonce, merchant_id AS "merchantId", value, payment_intent_id AS "paymentIntentId",
           transaction_hash AS "transactionHash", refusal_reason AS "refusalReason",
           coalesce(broadcast_until > now(), false) AS leased
      FROM x402_authorizations
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}`;
  return rows[0] ?? null;
}

export async function setClaimPaymentIntent(tx: Db, key: ClaimKey, paymentIntentId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE x402_authorizations SET payment_intent_id = ${paymentIntentId}
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}`;
}

/** A new lease for a claim nothing was sent for and nobody holds: true when this caller may broadcast it. */
export async function takeBroadcastLease(db: Db, key: ClaimKey): Promise<boolean> {
  const taken = await db.$executeRaw`
    UPDATE x402_authorizations SET broadcast_until = now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS})
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}
       AND transaction_hash IS NULL AND refusal_reason IS NULL AND (broadcast_until IS NULL OR broadcast_until <= now())`;
  return taken === 1;
}

/** The lease given back (nothing was sent): a retry of the same payment may broadcast it at once. */
export async function releaseBroadcastLease(db: Db, key: ClaimKey): Promise<void> {
  await db.$executeRaw`
    UPDATE x402_authorizations SET broadcast_until = NULL
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce} AND transaction_hash IS NULL`;
}

/** The transaction that carries the authorization, recorded as soon as it was sent. */
export async function recordBroadcast(db: Db, key: ClaimKey, hash: string): Promise<void> {
  await db.$executeRaw`
    UPDATE x402_authorizations SET transaction_hash = ${hash.toLowerCase()}
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}`;
}

/**
 * The chain refused the authorization and nothing was sent (or what was sent is gone): no broadcast may follow.
 * `onlyIfAbandoned`: only when no lease runs (the tick's decision about a claim whose broadcaster died).
 */
export async function recordRefusal(db: Db, key: ClaimKey, reason: string, onlyIfAbandoned = false): Promise<boolean> {
  const recorded = await db.$executeRaw`
    UPDATE x402_authorizations SET refusal_reason = ${reason}, broadcast_until = NULL
     WHERE network = ${key.network} AND asset = ${key.asset} AND payer = ${key.payer} AND nonce = ${key.nonce}
       AND refusal_reason IS NULL
       AND (${!onlyIfAbandoned} OR (transaction_hash IS NULL AND (broadcast_until IS NULL OR broadcast_until <= now())))`;
  return recorded === 1;
}
