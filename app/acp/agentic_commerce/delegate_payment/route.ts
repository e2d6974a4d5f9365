// POST /acp/agentic_commerce/delegate_payment (merchant key, held by the agent platform): ACP's delegated
// payment, a card with an allowance -> a token usable only within it (docs/acp.md).
import { delegatePayment } from "@/lib/acp/delegate-payment";
import { acpMethodNotAllowed, acpRoute, idempotencyKeyOf } from "@/lib/acp/http";
import { DelegatePaymentRequest } from "@/lib/acp/schemas";

export const POST = acpRoute(
  { kind: "delegate_payment", permission: ["acp", "write"], body: DelegatePaymentRequest, status: 201 },
  ({ tx, principal, body, req }) => delegatePayment(tx, principal, body, idempotencyKeyOf(req)),
);

const notAllowed = acpMethodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export const dynamic = "force-dynamic";
