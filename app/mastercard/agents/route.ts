// POST registers one of the caller's agent keys on mastercard; GET lists them (docs/cards.md "Agent keys").
import { listAgentKeys, registerAgentKey } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => registerAgentKey(tx, principal, "mastercard", body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listAgentKeys(tx, principal, "mastercard", query));

export const dynamic = "force-dynamic";
