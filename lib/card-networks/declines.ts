// A card-network credential refused (docs/cards.md "Declines"): 402 PAYMENT_DECLINED with `details.reason`, nothing
// charged. Not a rail decline: nothing is written, so the refusal rolls the request back (the nonce stays unspent).
import { DomainError } from "../errors";

export type CredentialDecline =
  | "token_revoked"
  | "token_expired"
  | "token_merchant_mismatch"
  | "token_limit_exceeded"
  | "token_uses_exhausted"
  | "dtvc_invalid"
  | "agent_key_mismatch"
  | "agent_not_verified"
  | "credential_used"
  | "credential_expired"
  | "credential_merchant_mismatch"
  | "credential_amount_exceeded"
  | "mandate_exceeded"
  | "mandate_expired"
  | "merchant_not_allowed"
  | "instruction_not_active"
  | "verified_agent_required";

export function declined(reason: CredentialDecline, message: string): DomainError {
  return new DomainError("PAYMENT_DECLINED", `${message} Nothing was charged.`, { reason });
}
