// POST revokes a visa agent key: every later signature by it is refused (revoked_key; docs/cards.md).
import { revokeAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";

export const POST = api({ auth: "secret", permission: ["visa", "write"] }, ({ tx, principal, params }) =>
  revokeAgentKey(tx, principal, "visa", params.id),
);

export const dynamic = "force-dynamic";
