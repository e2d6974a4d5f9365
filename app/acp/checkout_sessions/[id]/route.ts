// GET /acp/checkout_sessions/:id (retrieve) and POST (update), merchant key (docs/acp.md).
import { acpMethodNotAllowed, acpRoute, acpVersionedRoute } from "@/lib/acp/http";
import { findSession } from "@/lib/acp/lock-session";
import { updateSession } from "@/lib/acp/update-session";
import { updateSession2026 } from "@/lib/acp/update-session-2026";
import { updateBody } from "@/lib/acp/versioned-bodies";
import { viewInVersion } from "@/lib/acp/view-session-2026";

export const GET = acpRoute({ kind: "checkout", permission: ["acp", "read"] }, async ({ tx, principal, params, version }) =>
  viewInVersion(tx, await findSession(tx, principal, params.id), version),
);

export const POST = acpVersionedRoute(
  { kind: "checkout", permission: ["acp", "write"], body: updateBody },
  ({ tx, principal, params, body }) =>
    body.version === "2026-01-16"
      ? updateSession(tx, principal, params.id, body.input)
      : updateSession2026(tx, principal, body.version, params.id, body.input),
);

const notAllowed = acpMethodNotAllowed(["GET", "POST"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
