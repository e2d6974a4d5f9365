// The signer of x402's offer-receipt extension (@x402/extensions: createJWSOfferReceiptIssuer, createReceiptJWS):
// the service's active key, named by its DID URL (`did:web:<host>#<kid>`, which a verifier resolves from
// /.well-known/did.json). Its shape is the extension's JWSSigner, written out so that lib/receipts imports no x402.
// The extension hands `sign` the JWS signing input; ES256's JWS signature is the raw r || s (IEEE P1363). Signed by
// node:crypto at once, not WebCrypto's `subtle.sign`, which queues the same signature on the thread pool: on the paid
// request's path, 0.03 ms of CPU against 0.13-0.2 ms and a wake-up of another thread (docs/BENCHMARKS.md).
import { KeyObject, sign } from "node:crypto";
import type { Db } from "../db";
import { didKeyId } from "./did-document";
import { activeSigningKey, type ServiceSigningKey } from "./signing-key";

export interface OfferReceiptSigner {
  kid: string;
  format: "jws";
  algorithm: string;
  sign: (signingInput: Uint8Array) => Promise<string>;
}

export async function offerReceiptSigner(db: Db): Promise<OfferReceiptSigner> {
  return offerReceiptSignerOf(await activeSigningKey(db));
}

/** The signer of a key the caller has already (receiptWithKey read it with the receipt). */
export function offerReceiptSignerOf(key: ServiceSigningKey): OfferReceiptSigner {
  return {
    kid: didKeyId(key.kid),
    format: "jws",
    algorithm: key.alg,
    async sign(signingInput) {
      return sign("sha256", signingInput, { key: KeyObject.from(key.privateKey), dsaEncoding: "ieee-p1363" }).toString("base64url");
    },
  };
}
