import { api } from "@/lib/http/api";
import { getSpendingAgent } from "@/lib/spending-policies/agents";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getSpendingAgent(tx, principal, params.id));

export const dynamic = "force-dynamic";
