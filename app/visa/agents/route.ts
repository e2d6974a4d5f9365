// POST registers one of the caller's agent keys on visa; GET lists them (docs/cards.md "Agent keys").
import { ListAgentsQuery, listAgentKeys, RegisterAgentBody, registerAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";

export const POST = api(
  { auth: "secret", permission: ["visa", "write"], body: RegisterAgentBody, status: 201 },
  ({ tx, principal, body }) => registerAgentKey(tx, principal, "visa", body),
);

export const GET = api({ auth: "secret", permission: ["visa", "read"], query: ListAgentsQuery }, ({ tx, principal, query }) =>
  listAgentKeys(tx, principal, "visa", query),
);

export const dynamic = "force-dynamic";
