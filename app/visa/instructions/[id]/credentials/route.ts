// POST (payer key + TAP signature by the instruction's agent key, tag credential-request): a single-use credential
// (vtok_) for one merchant and amount, refused outside the instruction's mandates (docs/cards.md).
import { keepSignedBody } from "@/lib/agent-identity/signed-body";
import { api } from "@/lib/http/api";
import { requestCredential } from "@/lib/visa/instructions";
import * as operation from "./operations";

// The raw body is kept for a signature covering content-digest.
export const POST = keepSignedBody(
  api(operation.POST, ({ tx, req, principal, params, body }) => requestCredential(tx, req, principal, params.id, body)),
);

export const dynamic = "force-dynamic";
