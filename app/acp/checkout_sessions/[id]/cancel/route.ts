// POST /acp/checkout_sessions/:id/cancel (merchant key): 405 once completed or canceled (docs/acp.md).
import { cancelSession } from "@/lib/acp/cancel-session";
import { acpRoute } from "@/lib/acp/http";
import { CancelSessionRequest } from "@/lib/acp/schemas";

export const POST = acpRoute({ kind: "checkout", body: CancelSessionRequest }, ({ tx, principal, params }) => cancelSession(tx, principal, params.id));

export const dynamic = "force-dynamic";
