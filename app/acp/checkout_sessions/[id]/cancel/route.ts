// POST /acp/checkout_sessions/:id/cancel (merchant key): 405 once completed or canceled (docs/acp.md).
import { cancelSession } from "@/lib/acp/cancel-session";
import { acpMethodNotAllowed, acpRoute } from "@/lib/acp/http";
import { CancelSessionRequest } from "@/lib/acp/schemas";

export const POST = acpRoute(
  { kind: "checkout", permission: ["acp", "write"], body: CancelSessionRequest },
  ({ tx, principal, params, version }) => cancelSession(tx, principal, params.id, version),
);

const notAllowed = acpMethodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
