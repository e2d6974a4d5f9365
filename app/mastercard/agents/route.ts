// POST registers one of the caller's agent keys on mastercard; GET lists them (docs/cards.md "Agent keys").
import { listAgentKeys } from "@/lib/agent-identity/agent-keys";
import { registerAgentKey } from "@/lib/agent-identity/register-agent-key";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

// Signed by the key being registered (its proof of possession), over the raw body when it covers content-digest.
export const POST = api(operation.POST, ({ tx, req, rawBody, principal, body }) =>
  registerAgentKey(tx, req, rawBody, principal, "mastercard", body),
);

export const GET = api(operation.GET, ({ tx, principal, query }) => listAgentKeys(tx, principal, "mastercard", query));

export const dynamic = "force-dynamic";
