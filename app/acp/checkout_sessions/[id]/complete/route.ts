// POST /acp/checkout_sessions/:id/complete (merchant key): pays the cart with a shared payment token (docs/acp.md).
import { completeSession } from "@/lib/acp/complete-session";
import { acpMethodNotAllowed, acpRoute } from "@/lib/acp/http";
import { CheckoutSessionCompleteRequest } from "@/lib/acp/schemas";

export const POST = acpRoute(
  { kind: "checkout", permission: ["acp", "write"], body: CheckoutSessionCompleteRequest },
  ({ tx, principal, params, body }) => completeSession(tx, principal, params.id, body),
);

const notAllowed = acpMethodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
