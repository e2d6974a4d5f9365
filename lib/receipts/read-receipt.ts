// A stored receipt read back for showing (the dashboard's payment page): its signing key and claims, decoded as
// signed. Reading is not verifying: a verifier checks the signature (the SDK's verifyReceipt, or jose).
import { decodeJwt, decodeProtectedHeader } from "jose";
import { env } from "../env";

export function readReceipt(paymentIntentId: string, jws: string) {
  return {
    paymentIntentId,
    jws,
    kid: decodeProtectedHeader(jws).kid ?? "",
    claims: decodeJwt(jws) as Record<string, unknown>,
    jwksUrl: `${env.BASE_URL}/.well-known/jwks.json`,
  };
}
