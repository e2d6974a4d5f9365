// POST /acp/checkout_sessions/:id/complete (merchant key): pays the cart with a shared payment token (docs/acp.md).
import { completeSession } from "@/lib/acp/complete-session";
import { completeSession2026 } from "@/lib/acp/complete-session-2026";
import { acpMethodNotAllowed, acpVersionedRoute } from "@/lib/acp/http";
import { completeBody } from "@/lib/acp/versioned-bodies";

export const POST = acpVersionedRoute(
  { kind: "checkout", permission: ["acp", "write"], body: completeBody },
  ({ tx, principal, params, body }) =>
    body.version === "2026-01-16"
      ? completeSession(tx, principal, params.id, body.input)
      : completeSession2026(tx, principal, body.version, params.id, body.input),
);

const notAllowed = acpMethodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
