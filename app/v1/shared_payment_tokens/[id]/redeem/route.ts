// POST /v1/shared_payment_tokens/:id/redeem (the MERCHANT's key): charge the payer's token once, into a
// captured PaymentIntent (source "spt") of the merchant, in one transaction (lib/shared-payment-tokens/redeem-token.ts).
import { faultAt } from "@/lib/http/fault-injection";
import { api } from "@/lib/http/api";
import { redeemToken } from "@/lib/shared-payment-tokens/redeem-token";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body, req }) =>
  redeemToken(tx, principal, params.id, body, { afterRailCharge: () => faultAt(req, "after-rail-charge") }),
);

export const dynamic = "force-dynamic";
