// POST creates a spending agent with the payer's key; GET lists the payer's agents (docs/spending-policies.md).
import { api } from "@/lib/http/api";
import { createSpendingAgent, listSpendingAgents } from "@/lib/spending-policies/agents";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createSpendingAgent(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listSpendingAgents(tx, principal, query));

export const dynamic = "force-dynamic";
