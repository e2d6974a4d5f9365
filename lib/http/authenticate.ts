// Bearer API key -> principal (merchant, key, mode), and the principal's rate-limit token. With the
// Postgres buckets both happen in ONE statement (the hot path's first round trip); with Redis, an
// indexed lookup by the key's hash, then the Redis take.
import type { Db } from "../db";
import { UnauthorizedError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { hashSecret, looksLikeSecret } from "../merchants/api-key-secret";
import { bucketConfig, bucketsInPostgres } from "../rate-limit";
import { takeTokenSql } from "../rate-limit/postgres-limiter";
import { describeBucket } from "../rate-limit/token-bucket";
import { clientIp } from "./client-ip";
import { applyTakeResult, enforceRateLimit } from "./rate-limit-step";

export interface Principal {
  merchantId: string;
  apiKeyId: string;
  livemode: boolean;
}

interface KeyRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  tokens?: number;
  allowed?: boolean;
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

function presentedSecretHash(req: Request): string {
  const token = bearerToken(req);
  if (!token) throw new UnauthorizedError("Missing API key: send 'Authorization: Bearer <API key>'.");
  if (!looksLikeSecret(token)) throw new UnauthorizedError("Invalid API key.");
  return hashSecret(token);
}

async function findKey(db: Db, secretHash: string, takeToken: boolean): Promise<KeyRow | undefined> {
  const key = Prisma.sql`SELECT id, merchant_id, livemode FROM api_keys WHERE secret_hash = ${secretHash} AND revoked_at IS NULL`;
  if (!takeToken) return (await db.$queryRaw<KeyRow[]>(key))[0];
  const take = takeTokenSql(bucketConfig(), (full) => Prisma.sql`SELECT 'key:' || k.id, ${full} FROM k`);
  const rows = await db.$queryRaw<KeyRow[]>(Prisma.sql`
    WITH k AS (${key}), t AS (${take})
    SELECT k.id, k.merchant_id, k.livemode, t.tokens, t.allowed FROM k LEFT JOIN t ON true`);
  return rows[0];
}

/**
 * Authenticates and takes the principal's token. A failed attempt costs a token from the caller's IP
 * bucket instead (a brake on guessing keys).
 */
export async function authenticateAndLimit(db: Db, req: Request, headers: Headers): Promise<Principal> {
  const inOneStatement = bucketsInPostgres();
  let row: KeyRow | undefined;
  try {
    row = await findKey(db, presentedSecretHash(req), inOneStatement);
    if (!row) throw new UnauthorizedError("Invalid API key.");
  } catch (err) {
    if (err instanceof UnauthorizedError) await enforceRateLimit(`ip:${clientIp(req)}`, headers);
    throw err;
  }
  const principal = { merchantId: row.merchant_id, apiKeyId: row.id, livemode: row.livemode };
  if (inOneStatement) applyTakeResult(describeBucket(bucketConfig(), Boolean(row.allowed), Number(row.tokens)), headers);
  else await enforceRateLimit(`key:${principal.apiKeyId}`, headers);
  return principal;
}
