// GET (payer key + TAP signature, tag agent-browser-auth): a merchant's checkout terms for a browsing agent (docs/cards.md).
import { api } from "@/lib/http/api";
import { browseCheckout } from "@/lib/visa/pay-checkout";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, req, principal, params }) => browseCheckout(tx, req, principal, params.id));

export const dynamic = "force-dynamic";
