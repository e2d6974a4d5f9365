// POST /visa/verify and /mastercard/verify (merchant key; docs/cards.md "Verify for your own server"): the
// site-protection role. A merchant whose own server received a signed agent request hands it over; the answer
// says whether one of this network's registered agents signed it, with the same rules and reason codes as the
// protocol routes. It spends the nonce (a replay of the same request is refused). A refusal is an answer (200
// `valid: false`), as the x402 facilitator's verify is. `agent.operator` names a foreign operator's origin (its
// directory fetched and cached; docs/cards.md "Foreign agent operators"), null for an agent registered here.
import type { Db } from "../db";
import { env } from "../env";
import type { Scope } from "../scope";
import type { Network } from "./profiles";
import { signatureAgentOf } from "./agent-keys";
import { signedRequestFromBody, type VerifyRequestInput } from "./signed-request";
import { verifyAgentRequest, type VerifiedAgent } from "./verify-agent-request";
import { checkPaymentContainer } from "./payment-container";
import { AgentSignatureRefused } from "./reasons";
import { DomainError } from "../errors";

/** Visa: the body's agenticPaymentContainer, checked as the pay path checks it (same key, same nonce, its signature). */
function containerOf(body: string | undefined, agent: VerifiedAgent) {
  let parsed: unknown;
  try {
    parsed = body === undefined ? undefined : JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const container = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>).agenticPaymentContainer : undefined;
  if (!container || typeof container !== "object" || Array.isArray(container)) return { present: false };
  try {
    const credentialId = checkPaymentContainer(container as Record<string, unknown>, agent);
    return { present: true, valid: true, credentialId };
  } catch (err) {
    if (err instanceof AgentSignatureRefused) return { present: true, valid: false, reasonCode: err.reason };
    if (err instanceof DomainError) return { present: true, valid: false, reasonCode: "object_invalid" };
    throw err;
  }
}

export async function verifyForMerchant(tx: Db, merchant: Scope, network: Network, input: VerifyRequestInput) {
  const verification = await verifyAgentRequest(tx, signedRequestFromBody(input), {
    network,
    operation: "verify",
    livemode: merchant.livemode,
    ownOrigin: env.BASE_URL,
    expectedAuthority: null, // the merchant's own request: its URL is the authority signed for
  });
  if (!verification.ok) return { valid: false as const, reasonCode: verification.reason };
  const { key } = verification;
  return {
    ...(network === "visa" ? { paymentContainer: containerOf(input.body, verification) } : {}),
    valid: true as const,
    network,
    tag: verification.tag,
    agent: {
      agentKeyId: key?.id ?? null,
      keyid: verification.keyid,
      name: key?.name ?? null,
      signatureAgent: verification.signatureAgent ?? (key ? signatureAgentOf(key) : null),
      operator: verification.operator,
      algorithm: verification.verificationKey.algorithm,
    },
    nonce: verification.nonce,
    created: new Date(verification.created * 1000).toISOString(),
    expires: new Date(verification.expires * 1000).toISOString(),
  };
}
