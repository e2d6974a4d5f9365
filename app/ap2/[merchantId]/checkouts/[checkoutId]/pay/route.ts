// POST /ap2/:merchantId/checkouts/:checkoutId/pay (the buyer's key; docs/a2a.md "AP2 v0.2"): the mandates verified
// and the checkout paid once, in one transaction (lib/ap2/v02/pay.ts); a refusal is 402 with nothing charged.
import { ap2Merchant } from "@/lib/ap2/v02/checkout";
import { payCheckout } from "@/lib/ap2/v02/pay";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, async ({ tx, principal, params, body }) => {
  const merchant = await ap2Merchant(tx, params.merchantId);
  return payCheckout(tx, principal, merchant, params.checkoutId, body);
});

export const dynamic = "force-dynamic";
