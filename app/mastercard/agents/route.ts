// POST registers one of the caller's agent keys on mastercard; GET lists them (docs/cards.md "Agent keys").
import { listAgentKeys } from "@/lib/agent-identity/agent-keys";
import { registerAgentKey } from "@/lib/agent-identity/register-agent-key";
import { keepSignedBody } from "@/lib/agent-identity/signed-body";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

// Signed by the key being registered (its proof of possession); the raw body kept for a covered content-digest.
export const POST = keepSignedBody(
  api(operation.POST, ({ tx, req, principal, body }) => registerAgentKey(tx, req, principal, "mastercard", body)),
);

export const GET = api(operation.GET, ({ tx, principal, query }) => listAgentKeys(tx, principal, "mastercard", query));

export const dynamic = "force-dynamic";
