// Registering an agent key with its proof of possession (docs/cards.md "Agent keys"): a challenge from
// POST /<network>/agents/challenge, then POST /<network>/agents signed by the key over it (the SDK's
// signAgentKeyRegistration).
import { signAgentKeyRegistration, type AgentPrivateJwk } from "agent-payments-sdk";
import { newAgentKey } from "./agent-keys";
import { baseUrl, call, type ApiResponse } from "./http";

export const publicJwkOf = (key: AgentPrivateJwk) => ({ kty: key.kty, crv: key.crv, x: key.x });

/** A challenge for the provider's next registration on the network. */
export async function keyChallenge(network: "visa" | "mastercard", apiKey: string): Promise<string> {
  const res = await call("POST", `/${network}/agents/challenge`, { key: apiKey });
  if (res.status !== 201) throw new Error(`challenge: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.challenge as string;
}

/**
 * POST /<network>/agents { name, jwk } signed by `signer` over a fresh challenge: by default the key itself, so
 * the proof holds; `jwk` defaults to the key's public part (another party's public key makes the proof fail).
 */
export async function registerAgentKey(
  network: "visa" | "mastercard",
  apiKey: string,
  options: { name?: string; key?: AgentPrivateJwk; jwk?: unknown; signer?: AgentPrivateJwk; spendingAgentId?: string } = {},
): Promise<ApiResponse & { key: AgentPrivateJwk }> {
  const key = options.key ?? newAgentKey();
  const url = `${baseUrl()}/${network}/agents`;
  const { headers } = signAgentKeyRegistration({ url, privateJwk: options.signer ?? key, challenge: await keyChallenge(network, apiKey) });
  const res = await call("POST", `/${network}/agents`, {
    key: apiKey,
    headers,
    body: {
      name: options.name ?? "Shopping agent",
      jwk: options.jwk ?? publicJwkOf(key),
      ...(options.spendingAgentId ? { spendingAgentId: options.spendingAgentId } : {}),
    },
  });
  return { ...res, key };
}
