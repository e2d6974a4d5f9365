// Bearer API key -> principal (merchant, key, mode). One indexed lookup by the key's hash.
import type { Db } from "../db";
import { UnauthorizedError } from "../errors";
import { hashSecret, looksLikeSecret } from "../merchants/api-key-secret";

export interface Principal {
  merchantId: string;
  apiKeyId: string;
  livemode: boolean;
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export async function authenticate(db: Db, req: Request): Promise<Principal> {
  const token = bearerToken(req);
  if (!token) throw new UnauthorizedError("Missing API key: send 'Authorization: Bearer <API key>'.");
  if (!looksLikeSecret(token)) throw new UnauthorizedError("Invalid API key.");
  const rows = await db.$queryRaw<{ id: string; merchant_id: string; livemode: boolean }[]>`
    SELECT id, merchant_id, livemode FROM api_keys WHERE secret_hash = ${hashSecret(token)} AND revoked_at IS NULL`;
  const key = rows[0];
  if (!key) throw new UnauthorizedError("Invalid API key.");
  return { merchantId: key.merchant_id, apiKeyId: key.id, livemode: key.livemode };
}
