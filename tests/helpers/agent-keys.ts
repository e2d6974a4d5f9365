// A fresh Ed25519 agent key as a private JWK, the kind the card-network tests register and sign with.
import { generateKeyPairSync } from "node:crypto";
import type { AgentPrivateJwk } from "agent-payments-sdk";

export function newAgentKey(): AgentPrivateJwk {
  const { privateKey } = generateKeyPairSync("ed25519");
  return privateKey.export({ format: "jwk" }) as AgentPrivateJwk;
}
