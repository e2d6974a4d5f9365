// The agent verifier's refusals (docs/cards.md "Reason codes"): one fixed code per rule, stable for clients.
import { DomainError, type ErrorCode } from "../errors";

export const REFUSAL_REASONS = [
  "missing_signature",
  "malformed_signature",
  "unsupported_tag",
  "tag_operation_mismatch",
  "missing_field",
  "window_too_long",
  "not_yet_valid",
  "expired",
  "replayed_nonce",
  "authority_mismatch",
  "unknown_agent",
  "unknown_key",
  "revoked_key",
  "agent_not_verified",
  "bad_signature",
  "directory_unavailable",
  "algorithm_mismatch",
  "content_digest_mismatch",
  "object_missing",
  "object_nonce_mismatch",
  "object_kid_mismatch",
  "object_bad_signature",
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

const MESSAGES: Record<RefusalReason, string> = {
  missing_signature: "The request carries no agent signature (Signature-Input and Signature).",
  malformed_signature: "The agent signature headers do not parse as RFC 9421 fields.",
  unsupported_tag: "No signature carries a tag this path accepts.",
  tag_operation_mismatch: "The signature's tag is not the one for this operation.",
  missing_field: "The signature lacks a required covered component or parameter.",
  window_too_long: "expires - created is more than 8 minutes.",
  not_yet_valid: "The signature's created time is in the future.",
  expired: "The signature has expired.",
  replayed_nonce: "This signature's nonce was already used.",
  authority_mismatch: "The signed request was not addressed to this service's authority.",
  unknown_agent: "The Signature-Agent names neither an agent of this service nor a trusted agent operator.",
  unknown_key: "No registered agent key has this keyid.",
  revoked_key: "The agent key was revoked.",
  agent_not_verified: "The agent is registered but not yet verified; it cannot pay.",
  bad_signature: "The signature does not verify.",
  directory_unavailable: "The agent operator's key directory could not be fetched or its own signature does not verify.",
  algorithm_mismatch: "The signature's alg is not the algorithm of the key it names.",
  content_digest_mismatch: "The signed Content-Digest does not match the body received.",
  object_missing: "The body lacks the signed object this operation needs.",
  object_nonce_mismatch: "The body object's nonce differs from the message signature's.",
  object_kid_mismatch: "The body object's kid differs from the message signature's keyid.",
  object_bad_signature: "The body object's signature does not verify.",
};

function codeOf(reason: RefusalReason): ErrorCode {
  if (reason === "malformed_signature") return "VALIDATION_ERROR";
  if (reason === "missing_signature") return "UNAUTHORIZED";
  return "FORBIDDEN";
}

/** A refused agent signature on a protocol route: 400 (unparsable), 401 (none) or 403, `details.reason` the code. */
export class AgentSignatureRefused extends DomainError {
  constructor(readonly reason: RefusalReason) {
    super(codeOf(reason), `${MESSAGES[reason]} Nothing was charged.`, { reason });
  }
}
