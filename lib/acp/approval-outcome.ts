// An ACP checkout session whose payment waited for the payer's approval (docs/approvals.md), when the request is
// decided: approved, it completes naming the order the approval paid; declined or expired, it is canceled (nothing
// charged). Registered with lib/approvals by lib/register-adapters.ts; runs in the deciding transaction.
import type { Db } from "../db";
import type { ApprovalRequest } from "../generated/prisma/client";
import { transitionSession } from "./transitions";

export async function settleApprovedSession(tx: Db, request: ApprovalRequest): Promise<void> {
  if (!request.acpCheckoutSessionId) return;
  if (request.status === "approved" && request.paymentIntentId) {
    const checkout = await tx.checkout.findUniqueOrThrow({ where: { id: request.checkoutId }, select: { orderId: true } });
    await transitionSession(tx, request.acpCheckoutSessionId, "completed", {
      orderId: checkout.orderId,
      paymentIntentId: request.paymentIntentId,
      completedAt: new Date(),
    });
    return;
  }
  const session = await tx.acpCheckoutSession.findUnique({ where: { id: request.acpCheckoutSessionId }, select: { status: true } });
  if (session?.status === "open") await transitionSession(tx, request.acpCheckoutSessionId, "canceled");
}
