// One spending agent: read, update (name, description, metadata), delete (detach; docs/spending-policies.md).
import { api } from "@/lib/http/api";
import { deleteSpendingAgent, getSpendingAgent, updateSpendingAgent } from "@/lib/spending-policies/agents";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getSpendingAgent(tx, principal, params.id));

export const POST = api(operation.POST, ({ tx, principal, params, body }) => updateSpendingAgent(tx, principal, params.id, body));

export const DELETE = api(operation.DELETE, ({ tx, principal, params }) => deleteSpendingAgent(tx, principal, params.id));

export const dynamic = "force-dynamic";
