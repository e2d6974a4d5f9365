// A key directory response's own signatures (the Web Bot Auth directory draft; docs/cards.md "Foreign agent
// operators"): the operator signs the response with each key it lists (tag `http-message-signatures-directory`,
// covering `"@authority";req`, the authority the directory was fetched from), proving it holds them. A key is
// accepted only with a valid signature of its own; any directory signature that fails refuses the whole directory.
import { CLOCK_SKEW_SECONDS } from "./profiles";
import { MalformedSignature, parseSignatures, signatureBase, type SignedRequest } from "./message-signature";
import { algClaimMatches, verifyWithKey, type VerificationKey } from "./verification-keys";

export const DIRECTORY_TAG = "http-message-signatures-directory";

/** The directory's response as the signature sees it: the request it answered (its URL), the response's fields. */
export interface DirectoryResponse {
  url: URL;
  header(name: string): string | null;
}

/** The listed keys that signed the response, or null: a failed signature, none at all, or unparsable fields. */
export function signedDirectoryKeys(keys: VerificationKey[], response: DirectoryResponse, now: number): VerificationKey[] | null {
  const input = response.header("signature-input");
  const signature = response.header("signature");
  if (!input || !signature) return null;
  let all;
  try {
    all = parseSignatures(input, signature);
  } catch (err) {
    if (err instanceof MalformedSignature) return null;
    throw err;
  }
  const view: SignedRequest = {
    method: "GET",
    scheme: response.url.protocol.replace(":", ""),
    authority: response.url.host,
    path: response.url.pathname,
    query: "",
    header: response.header,
  };
  const byKeyid = new Map(keys.map((k) => [k.keyid, k]));
  const signed = new Map<string, VerificationKey>();
  for (const sig of all.filter((s) => s.params.get("tag") === DIRECTORY_TAG)) {
    const key = byKeyid.get(String(sig.params.get("keyid")));
    const created = sig.params.get("created");
    const expires = sig.params.get("expires");
    const authority = sig.components.find((c) => c.name === "@authority" && c.params.get("req") === true);
    if (!key || !authority || typeof created !== "number" || typeof expires !== "number") return null;
    if (created > now + CLOCK_SKEW_SECONDS || expires <= now || !algClaimMatches(key.algorithm, sig.params.get("alg"))) return null;
    const base = signatureBase(view, sig);
    if (base === null || !verifyWithKey(base, sig.signature, key)) return null;
    signed.set(key.keyid, key);
  }
  return signed.size > 0 ? [...signed.values()] : null;
}
