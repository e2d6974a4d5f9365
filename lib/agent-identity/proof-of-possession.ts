// Proof of possession at agent key registration (docs/cards.md "Agent keys"; review finding L3): the registration
// request `POST /<network>/agents` is signed with the key it registers (RFC 9421, tag `agent-key-registration`,
// covering "@method" "@authority" "@path", with created/expires/keyid/nonce, the nonce being a challenge from
// POST /<network>/agents/challenge). So nobody can register another party's published public key.
//
//   no signature of that tag, or one that lacks a component or parameter -> 400 VALIDATION_ERROR
//     (details.reason `proof_of_possession_required`, `malformed_signature`)
//   the window (at most 480 s, not in the future, not expired), our authority, the keyid is the submitted key's
//   thumbprint, its alg (when sent) the key's, a covered content-digest matches the body, the signature verifies
//   with the SUBMITTED key, then the challenge is spent once -> else 403 FORBIDDEN with details.reason
//     (`window_too_long`, `not_yet_valid`, `expired`, `authority_mismatch`, `proof_key_mismatch`,
//      `algorithm_mismatch`, `content_digest_mismatch`, `bad_signature`, `challenge_invalid`)
import type { Db } from "../db";
import { ForbiddenError, ValidationError } from "../errors";
import type { Scope } from "../scope";
import { contentDigestMatches } from "./content-digest";
import { REGISTRATION_COMPONENTS, REGISTRATION_TAG, spendKeyChallenge } from "./key-challenges";
import { MalformedSignature, parseSignatures, signatureBase, type ParsedSignature, type SignedRequest } from "./message-signature";
import { CLOCK_SKEW_SECONDS, MAX_WINDOW_SECONDS, type Network } from "./profiles";
import { algClaimMatches, verificationKeyOf, verifyWithKey } from "./verification-keys";

const HOW =
  `Sign the registration request with the key being registered: RFC 9421 Signature-Input and Signature, ` +
  `tag "${REGISTRATION_TAG}", covering ${REGISTRATION_COMPONENTS.map((c) => `"${c}"`).join(" ")}, with created, ` +
  `expires, keyid (the key's thumbprint) and as nonce a challenge from POST /<network>/agents/challenge.`;

function required(reason: string, field: string, message: string): ValidationError {
  return new ValidationError(`${message} ${HOW}`, [{ path: field, message }], { reason });
}

const refused = (reason: string, message: string) =>
  new ForbiddenError(`The key's proof of possession is refused: ${message} Nothing was registered.`, { reason });

/** The registration's own signature, of the registration tag, with what it must carry; else a 400. */
function registrationSignature(req: SignedRequest): ParsedSignature {
  const input = req.header("signature-input");
  const signature = req.header("signature");
  if (!input || !signature) throw required("proof_of_possession_required", "Signature", "The request is not signed with the key.");
  let sig: ParsedSignature | undefined;
  try {
    sig = parseSignatures(input, signature).find((s) => s.params.get("tag") === REGISTRATION_TAG);
  } catch (err) {
    if (err instanceof MalformedSignature)
      throw required("malformed_signature", "Signature-Input", "Signature-Input or Signature does not parse.");
    throw err;
  }
  if (!sig) throw required("proof_of_possession_required", "Signature-Input", `No signature has tag "${REGISTRATION_TAG}".`);
  const covered = new Set(sig.components.map((c) => c.name));
  const missing = REGISTRATION_COMPONENTS.find((name) => !covered.has(name));
  if (missing) throw required("proof_of_possession_required", "Signature-Input", `The signature does not cover "${missing}".`);
  const typed =
    Number.isInteger(sig.params.get("created")) &&
    Number.isInteger(sig.params.get("expires")) &&
    typeof sig.params.get("keyid") === "string" &&
    typeof sig.params.get("nonce") === "string";
  if (!typed) throw required("proof_of_possession_required", "Signature-Input", "The signature lacks created, expires, keyid or nonce.");
  return sig;
}

/** Why the signature's window is refused at `now`, or null. */
function windowProblem(created: number, expires: number, now: number): string | null {
  if (expires < created || expires - created > MAX_WINDOW_SECONDS) return "window_too_long";
  if (created > now + CLOCK_SKEW_SECONDS) return "not_yet_valid";
  return expires <= now ? "expired" : null;
}

/**
 * Checks that the registration request was signed by the key it registers, over an unspent challenge of this
 * provider, network and mode, and spends the challenge (in the caller's transaction). Throws 400 or 403.
 */
export async function requireProofOfPossession(
  tx: Db,
  owner: Scope,
  network: Network,
  jwk: unknown,
  req: SignedRequest,
  expectedAuthority: string,
  now = Math.floor(Date.now() / 1000),
): Promise<void> {
  const sig = registrationSignature(req);
  const window = windowProblem(sig.params.get("created") as number, sig.params.get("expires") as number, now);
  if (window) throw refused(window, "the signature's created/expires window is not current (at most 480 s).");
  if (req.authority.toLowerCase() !== expectedAuthority.toLowerCase())
    throw refused("authority_mismatch", "the request was not signed for this service's authority.");
  const key = verificationKeyOf(jwk);
  if (!key) throw required("proof_of_possession_required", "jwk", "The key cannot verify signatures.");
  if (sig.params.get("keyid") !== key.keyid)
    throw refused("proof_key_mismatch", "the signature's keyid is not the submitted key's thumbprint.");
  if (!algClaimMatches(key.algorithm, sig.params.get("alg"))) throw refused("algorithm_mismatch", "the signature's alg is not the key's.");
  if (sig.components.some((c) => c.name === "content-digest") && !contentDigestMatches(req.header("content-digest"), req.body ?? ""))
    throw refused("content_digest_mismatch", "the signed Content-Digest does not match the body.");
  const base = signatureBase(req, sig);
  if (base === null || !verifyWithKey(base, sig.signature, key))
    throw refused("bad_signature", "the signature does not verify with the submitted public key.");
  if (!(await spendKeyChallenge(tx, owner, network, sig.params.get("nonce") as string)))
    throw refused("challenge_invalid", "the nonce is not an unused, unexpired challenge issued to you for this network.");
}
