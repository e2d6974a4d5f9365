// POST (test mode): "know your agent" completes, a pending Mastercard agent becomes active (docs/cards.md).
import { approveAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";

export const POST = api({ auth: "secret", permission: ["mastercard", "write"] }, ({ tx, principal, params }) =>
  approveAgentKey(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
