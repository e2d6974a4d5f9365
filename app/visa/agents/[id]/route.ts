// GET one of the caller's visa agent keys (docs/cards.md "Agent keys").
import { getAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";

export const GET = api({ auth: "secret", permission: ["visa", "read"] }, ({ tx, principal, params }) =>
  getAgentKey(tx, principal, "visa", params.id),
);

export const dynamic = "force-dynamic";
