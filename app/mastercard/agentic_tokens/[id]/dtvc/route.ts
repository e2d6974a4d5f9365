// POST (payer key + Web Bot Auth signature by the token's agent key): a single-use Dynamic Token Verification
// Code for one purchase (docs/cards.md "Codes").
import { keepSignedBody } from "@/lib/agent-identity/signed-body";
import { api } from "@/lib/http/api";
import { requestCode } from "@/lib/mastercard/request-code";
import * as operation from "./operations";

// The raw body is kept for a signature covering content-digest.
export const POST = keepSignedBody(api(operation.POST, ({ tx, req, principal, params }) => requestCode(tx, req, principal, params.id)));

export const dynamic = "force-dynamic";
