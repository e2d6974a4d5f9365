// POST /ap2/buyer_keys/:id/revoke (the payer's key; docs/a2a.md "AP2 v0.2"): the key is revoked for good; mandates
// it signed are refused from then on (buyer_key_revoked), nothing charged.
import { revokeBuyerKey } from "@/lib/ap2/v02/buyer-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => revokeBuyerKey(tx, principal, params.id));

export const dynamic = "force-dynamic";
