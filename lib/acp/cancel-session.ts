// POST /acp/checkout_sessions/:id/cancel: an open session is canceled (nothing was charged: a session is
// only ever charged by complete, which completes it in the same transaction). A completed or canceled one
// answers 405 as ACP's checkout RFC (section 4.5) says.
import type { Db } from "../db";
import { Reply } from "../http/api";
import type { Scope } from "../scope";
import { lockSession } from "./lock-session";
import { transitionSession } from "./transitions";
import type { AcpVersion } from "./schemas";
import { viewInVersion } from "./view-session-2026";

export async function cancelSession(tx: Db, scope: Scope, id: string, version: AcpVersion) {
  const session = await lockSession(tx, scope, id);
  if (session.status !== "open") {
    return new Reply(405, {
      type: "invalid_request",
      code: `checkout_session_${session.status}`,
      message: `Checkout session ${id} is ${session.status} and cannot be canceled.`,
    });
  }
  const canceled = await transitionSession(tx, id, "canceled", { canceledAt: new Date() });
  return viewInVersion(tx, canceled, version);
}
