// POST /<network>/agents (docs/cards.md "Agent keys"): a key is registered only with its proof of possession, the
// registration request signed by that key over a challenge this provider was issued (proof-of-possession.ts).
import type { Db } from "../db";
import type { Scope } from "../scope";
import { insertAgentKey, registrableKeyid, type RegisterAgentInput } from "./agent-keys";
import type { Network } from "./profiles";
import { requireProofOfPossession } from "./proof-of-possession";
import { ownAuthority, signedRequestOf } from "./signed-request";

export async function registerAgentKey(
  tx: Db,
  req: Request,
  rawBody: string | undefined,
  owner: Scope,
  network: Network,
  input: RegisterAgentInput,
) {
  registrableKeyid(owner, input);
  const signed = { ...signedRequestOf(req), body: rawBody ?? null };
  await requireProofOfPossession(tx, owner, network, input.jwk, signed, ownAuthority());
  return insertAgentKey(tx, owner, network, input);
}
