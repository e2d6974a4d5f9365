// GET one of the caller's mastercard agent keys (docs/cards.md "Agent keys").
import { getAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getAgentKey(tx, principal, "mastercard", params.id));

export const dynamic = "force-dynamic";
