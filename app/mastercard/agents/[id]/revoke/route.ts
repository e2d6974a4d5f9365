// POST revokes a mastercard agent key: every later signature by it is refused (revoked_key; docs/cards.md).
import { revokeAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => revokeAgentKey(tx, principal, "mastercard", params.id));

export const dynamic = "force-dynamic";
