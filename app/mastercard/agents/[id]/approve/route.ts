// POST (test mode): "know your agent" completes, a pending Mastercard agent becomes active (docs/cards.md).
import { approveAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => approveAgentKey(tx, principal, params.id));

export const dynamic = "force-dynamic";
