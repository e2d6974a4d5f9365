// TAP's agenticPaymentContainer (docs/cards.md "Paying a checkout (Visa)"): a body object signed with the same key
// and the same nonce as the request's message signature. Its signature covers the compact JSON of its other
// members in the order received (`JSON.stringify` of the parsed object without `signature`), which is what the
// spec's "canonical representation of all fields in the object in the order received except for the signature
// itself" names; the SDK's signAgentObject makes it. Ed25519; `alg` may be given as ed25519, Ed25519 or EdDSA.
import { AgentSignatureRefused } from "./reasons";
import { verifyWithKey } from "./verification-keys";
import type { VerifiedAgent } from "./verify-agent-request";
import { ValidationError } from "../errors";

const ALGS = new Set(["ed25519", "eddsa"]);

/** The container's credential id (vtok_), after every check of its signature; throws the refusal. */
export function checkPaymentContainer(container: Record<string, unknown> | undefined, agent: VerifiedAgent): string {
  if (!container) throw new AgentSignatureRefused("object_missing");
  const { signature, ...rest } = container;
  if (typeof signature !== "string" || typeof rest.nonce !== "string" || typeof rest.kid !== "string")
    throw new AgentSignatureRefused("object_missing");
  if (typeof rest.alg === "string" && !ALGS.has(rest.alg.toLowerCase()))
    throw new ValidationError("agenticPaymentContainer.alg must be ed25519.", [
      { path: "agenticPaymentContainer.alg", message: "ed25519 only" },
    ]);
  if (rest.nonce !== agent.nonce) throw new AgentSignatureRefused("object_nonce_mismatch");
  if (rest.kid !== agent.keyid) throw new AgentSignatureRefused("object_kid_mismatch");
  const valid = verifyWithKey(JSON.stringify(rest), Buffer.from(signature, "base64"), agent.verificationKey);
  if (!valid) throw new AgentSignatureRefused("object_bad_signature");
  const payload = rest.payload as { paymentMethod?: unknown } | undefined;
  const method = payload && typeof payload === "object" ? payload.paymentMethod : undefined;
  if (typeof method !== "string" || !/^vtok_[0-9A-Za-z]{1,64}$/.test(method)) {
    throw new ValidationError("agenticPaymentContainer.payload.paymentMethod must be a Visa credential (vtok_...).", [
      { path: "agenticPaymentContainer.payload.paymentMethod", message: "a vtok_ id" },
    ]);
  }
  return method;
}
