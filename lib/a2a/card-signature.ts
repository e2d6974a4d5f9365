// The agent card's signature (A2A v1.0 section 8.4; docs/a2a.md "The agent card"): a JWS over the card's JCS
// canonical form, made by the SDK's generateAgentCardSignature with the service's signing key (the one that signs
// receipts, lib/receipts/signing-key.ts). The protected header names the key (`kid`) and where to fetch it (`jku`:
// GET /.well-known/jwks.json), so any A2A client verifies the card with the SDK's verifyAgentCardSignature.
import { generateAgentCardSignature, type AgentCard } from "@a2a-js/sdk";
import { getDb } from "../db";
import { env } from "../env";
import { activeSigningKey } from "../receipts/signing-key";

export function jwksUrl(base = env.BASE_URL): string {
  return `${base}/.well-known/jwks.json`;
}

/** The card with its one signature (any signature it carried is replaced). */
export async function signAgentCard(card: AgentCard): Promise<AgentCard> {
  const key = await activeSigningKey(getDb());
  const sign = generateAgentCardSignature(key.privateKey, { alg: key.alg, kid: key.kid, typ: "JOSE", jku: jwksUrl() });
  return sign({ ...card, signatures: [] });
}
