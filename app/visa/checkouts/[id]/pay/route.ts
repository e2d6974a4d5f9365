// POST (payer key + TAP signature, tag agent-payer-auth, the body's agenticPaymentContainer signed by the same key
// and nonce): pay a merchant's checkout with a single-use Visa credential (docs/cards.md); 200 the paid order.
import { keepSignedBody } from "@/lib/agent-identity/signed-body";
import { api } from "@/lib/http/api";
import { payCheckoutWithCredential } from "@/lib/visa/pay-checkout";
import * as operation from "./operations";

// The raw body is kept for a signature covering content-digest.
export const POST = keepSignedBody(
  api(operation.POST, ({ tx, req, principal, params, body }) => payCheckoutWithCredential(tx, req, principal, params.id, body)),
);

export const dynamic = "force-dynamic";
