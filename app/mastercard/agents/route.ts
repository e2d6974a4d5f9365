// POST registers one of the caller's agent keys on mastercard; GET lists them (docs/cards.md "Agent keys").
import { ListAgentsQuery, listAgentKeys, RegisterAgentBody, registerAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";

export const POST = api(
  { auth: "secret", permission: ["mastercard", "write"], body: RegisterAgentBody, status: 201 },
  ({ tx, principal, body }) => registerAgentKey(tx, principal, "mastercard", body),
);

export const GET = api({ auth: "secret", permission: ["mastercard", "read"], query: ListAgentsQuery }, ({ tx, principal, query }) =>
  listAgentKeys(tx, principal, "mastercard", query),
);

export const dynamic = "force-dynamic";
