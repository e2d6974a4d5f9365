// POST (payer key + Web Bot Auth signature): a verified agent pays a merchant's checkout with its agentic token and
// a fresh code (docs/cards.md "Paying a checkout"); 200 the paid order, `agent` on its PaymentIntent.
import { api } from "@/lib/http/api";
import { payCheckoutWithToken } from "@/lib/mastercard/pay-checkout";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, req, rawBody, principal, params, body }) =>
  payCheckoutWithToken(tx, req, rawBody, principal, params.id, body),
);

export const dynamic = "force-dynamic";
