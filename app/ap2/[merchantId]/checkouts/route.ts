// POST /ap2/:merchantId/checkouts (the buyer's key; docs/a2a.md "AP2 v0.2"): a checkout the merchant signs, whose
// checkout_jwt the buyer's mandates embed and whose nonce their key bindings carry.
import { ap2Merchant, createCheckout } from "@/lib/ap2/v02/checkout";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, async ({ tx, principal, params, body }) => {
  const merchant = await ap2Merchant(tx, params.merchantId);
  return createCheckout(tx, merchant, principal, body);
});

export const dynamic = "force-dynamic";
