// The policy replaces the agent's whole policy; the id `default` sets the payer's default (docs/spending-policies.md).
import { api } from "@/lib/http/api";
import { setSpendingPolicy } from "@/lib/spending-policies/set-policy";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) => setSpendingPolicy(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
