// POST (payer key + TAP signature, tag agent-payer-auth, the body's agenticPaymentContainer signed by the same key
// and nonce): pay a merchant's checkout with a single-use Visa credential (docs/cards.md); 200 the paid order.
import { api } from "@/lib/http/api";
import { payCheckoutWithCredential } from "@/lib/visa/pay-checkout";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, req, rawBody, principal, params, body }) =>
  payCheckoutWithCredential(tx, req, rawBody, principal, params.id, body),
);

export const dynamic = "force-dynamic";
