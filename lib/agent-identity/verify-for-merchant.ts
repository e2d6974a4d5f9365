// POST /visa/verify and /mastercard/verify (merchant key; docs/cards.md "Verify for your own server"): the
// site-protection role. A merchant whose own server received a signed agent request hands it over; the answer
// says whether one of this network's registered agents signed it, with the same rules and reason codes as the
// protocol routes. It spends the nonce (a replay of the same request is refused). A refusal is an answer (200
// `valid: false`), as the x402 facilitator's verify is.
import type { Db } from "../db";
import { env } from "../env";
import type { Scope } from "../scope";
import type { Network } from "./profiles";
import { signatureAgentOf } from "./agent-keys";
import { signedRequestFromBody, type VerifyRequestInput } from "./signed-request";
import { verifyAgentRequest } from "./verify-agent-request";

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
    valid: true as const,
    network,
    tag: verification.tag,
    agent: { agentKeyId: key.id, keyid: key.keyid, name: key.name, signatureAgent: verification.signatureAgent ?? signatureAgentOf(key) },
    nonce: verification.nonce,
    created: new Date(verification.created * 1000).toISOString(),
    expires: new Date(verification.expires * 1000).toISOString(),
  };
}
