// POST /v1/shared_payment_tokens/:id/redeem (the MERCHANT's key): charge the payer's token once, into a
// captured PaymentIntent (source "spt") of the merchant, in one transaction (lib/shared-payment-tokens/redeem-token.ts).
// A charge above the token's spending agent's approval threshold waits for the payer (docs/approvals.md "REST
// redemption"): 402 PAYMENT_DECLINED, reason approval_pending, the request and the parked checkout committed.
import { faultAt } from "@/lib/http/fault-injection";
import { api } from "@/lib/http/api";
import { redeemOrAwaitApproval } from "@/lib/shared-payment-tokens/await-approval";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body, req }) =>
  redeemOrAwaitApproval(tx, principal, params.id, body, { source: "spt", afterRailCharge: () => faultAt(req, "after-rail-charge") }),
);

export const dynamic = "force-dynamic";
