// GET /ap2/:merchantId/jwks.json (public, limited per client IP; docs/a2a.md): the keys that verify the merchant's
// CartMandates (RFC 7517 JWK Set). The first request of a merchant without a key makes its first key.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { findAgentMerchant } from "../merchants/find-agent-merchant";
import { activeSigningKey, merchantJwks } from "./keys";

export async function jwksOf(db: Db, merchantId: string) {
  const merchant = await findAgentMerchant(merchantId);
  if (!merchant) throw new NotFoundError("merchant", merchantId);
  await activeSigningKey(db, merchant.id);
  return merchantJwks(db, merchant.id);
}
