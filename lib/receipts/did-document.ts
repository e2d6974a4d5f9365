// The deployment's did:web document (GET /.well-known/did.json; docs/receipts.md): the DID of BASE_URL's host, whose
// verification methods are the published receipt keys, each `did:web:<host>#<kid>`. x402's offer-receipt extension
// names its signer so (its `kid`) and resolves the key from this document.
import type { Db } from "../db";
import { env } from "../env";
import { publishedKeys } from "./published-keys";

/** did:web of BASE_URL's host (a port's colon percent-encoded, as did:web writes it). */
export function serviceDid(baseUrl = env.BASE_URL): string {
  return `did:web:${encodeURIComponent(new URL(baseUrl).host)}`;
}

/** The DID URL of a key: the `kid` an offer-receipt carries. */
export function didKeyId(kid: string, baseUrl = env.BASE_URL): string {
  return `${serviceDid(baseUrl)}#${kid}`;
}

export async function didDocument(db: Db) {
  const id = serviceDid();
  const keys = await publishedKeys(db);
  const methods = keys.map((jwk) => ({ id: didKeyId(jwk.kid!), type: "JsonWebKey2020", controller: id, publicKeyJwk: jwk }));
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
    id,
    verificationMethod: methods,
    assertionMethod: methods.map((method) => method.id),
  };
}
