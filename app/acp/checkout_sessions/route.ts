// POST /acp/checkout_sessions (merchant key): ACP's create checkout session (docs/acp.md).
import { createSession } from "@/lib/acp/create-session";
import { acpRoute } from "@/lib/acp/http";
import { CheckoutSessionCreateRequest } from "@/lib/acp/schemas";

export const POST = acpRoute({ kind: "checkout", body: CheckoutSessionCreateRequest }, ({ tx, principal, body }) => createSession(tx, principal, body));

export const dynamic = "force-dynamic";
