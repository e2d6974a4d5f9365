// POST (payer key + Web Bot Auth signature): a verified agent pays a merchant's checkout with its agentic token and
// a fresh code (docs/cards.md "Paying a checkout"); 200 the paid order, `agent` on its PaymentIntent.
import { keepSignedBody } from "@/lib/agent-identity/signed-body";
import { api } from "@/lib/http/api";
import { payCheckoutWithToken } from "@/lib/mastercard/pay-checkout";
import * as operation from "./operations";

// The raw body is kept for a signature covering content-digest.
export const POST = keepSignedBody(
  api(operation.POST, ({ tx, req, principal, params, body }) => payCheckoutWithToken(tx, req, principal, params.id, body)),
);

export const dynamic = "force-dynamic";
