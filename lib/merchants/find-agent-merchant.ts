import { getDb } from "../db";
import { PATH_ID_PATTERN } from "../validation/text-safety";

/** The merchant a public agent path names (/a2a/:merchantId, /ap2/:merchantId/jwks.json), or null for a malformed or unknown id. */
export async function findAgentMerchant(merchantId: string) {
  if (!/^mer_[0-9A-Za-z]{1,64}$/.test(merchantId) || !PATH_ID_PATTERN.test(merchantId)) return null;
  return getDb().merchant.findUnique({ where: { id: merchantId }, select: { id: true, name: true } });
}
