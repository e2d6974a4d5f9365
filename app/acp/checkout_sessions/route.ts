// POST /acp/checkout_sessions (merchant key): ACP's create checkout session (docs/acp.md).
import { createSession } from "@/lib/acp/create-session";
import { acpMethodNotAllowed, acpRoute } from "@/lib/acp/http";
import { CheckoutSessionCreateRequest } from "@/lib/acp/schemas";

export const POST = acpRoute(
  { kind: "checkout", permission: ["acp", "write"], body: CheckoutSessionCreateRequest },
  ({ tx, principal, body }) => createSession(tx, principal, body),
);

const notAllowed = acpMethodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
