// GET /acp/checkout_sessions/:id (retrieve) and POST (update), merchant key (docs/acp.md).
import { acpMethodNotAllowed, acpRoute } from "@/lib/acp/http";
import { findSession } from "@/lib/acp/lock-session";
import { CheckoutSessionUpdateRequest } from "@/lib/acp/schemas";
import { updateSession } from "@/lib/acp/update-session";
import { viewSession } from "@/lib/acp/view-session";

export const GET = acpRoute({ kind: "checkout", permission: ["acp", "read"] }, async ({ tx, principal, params }) =>
  viewSession(tx, await findSession(tx, principal, params.id)),
);

export const POST = acpRoute(
  { kind: "checkout", permission: ["acp", "write"], body: CheckoutSessionUpdateRequest },
  ({ tx, principal, params, body }) => updateSession(tx, principal, params.id, body),
);

const notAllowed = acpMethodNotAllowed(["GET", "POST"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
