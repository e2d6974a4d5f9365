// POST /acp/checkout_sessions (merchant key): ACP's create checkout session (docs/acp.md).
import { createSession } from "@/lib/acp/create-session";
import { createSession2026 } from "@/lib/acp/create-session-2026";
import { acpMethodNotAllowed, acpVersionedRoute } from "@/lib/acp/http";
import { createBody } from "@/lib/acp/versioned-bodies";

export const POST = acpVersionedRoute({ kind: "checkout", permission: ["acp", "write"], body: createBody }, ({ tx, principal, body }) =>
  body.version === "2026-01-16" ? createSession(tx, principal, body.input) : createSession2026(tx, principal, body.version, body.input),
);

const notAllowed = acpMethodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
