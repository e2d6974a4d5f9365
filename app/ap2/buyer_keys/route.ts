// POST /ap2/buyer_keys (the payer's key; docs/a2a.md "AP2 v0.2"): the public key the payer's trusted surface signs
// AP2 v0.2 mandates with; a mandate chain's root names it by kid. GET lists the payer's keys.
import { listBuyerKeys, registerBuyerKey } from "@/lib/ap2/v02/buyer-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => registerBuyerKey(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listBuyerKeys(tx, principal, query));

export const dynamic = "force-dynamic";
