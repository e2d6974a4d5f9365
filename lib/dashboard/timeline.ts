// The timeline of an order or PaymentIntent: the outbox events whose object (`events.object_id`, the
// indexed copy of `data.object.id`) is one of them, oldest first, in words. Events are the record of what
// happened (written in the transaction of each change).
import type { Db } from "../db";
import { formatMoney } from "../money/format";
import { describePaymentMethod } from "../payments/describe-payment-method";
import type { Scope } from "../scope";

export interface TimelineEntry {
  id: string;
  type: string;
  title: string;
  detail: string | null;
  createdAt: string;
}

const MAX_ENTRIES = 200;

export async function timelineOf(db: Db, scope: Scope, objectIds: string[]): Promise<TimelineEntry[]> {
  const events = await db.event.findMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode, objectId: { in: objectIds } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: MAX_ENTRIES,
    select: { id: true, type: true, data: true, createdAt: true },
  });
  return events.map((event) => {
    const object = ((event.data ?? {}) as { object?: Record<string, unknown> }).object ?? {};
    return { id: event.id, type: event.type, ...describe(event.type, object), createdAt: event.createdAt.toISOString() };
  });
}

function describe(type: string, object: Record<string, unknown>): { title: string; detail: string | null } {
  const currency = String(object.currency ?? "USD");
  const money = (value: unknown) => formatMoney(Number(value ?? 0), currency);
  switch (type) {
    case "order.paid":
      return { title: "Order paid", detail: money(object.amount) };
    case "order.refunded":
      return {
        title: object.status === "refunded" ? "Order fully refunded" : "Order partially refunded",
        detail: `${money(object.amountRefunded)} of ${money(object.amount)} refunded in total`,
      };
    case "order.canceled":
      return { title: "Order canceled", detail: "No payment was taken." };
    case "payment_intent.captured":
      return {
        title: "Payment captured",
        detail: `${money(object.amountCaptured)}${object.paymentMethod ? ` with ${describePaymentMethod(String(object.paymentMethod)).label}` : ""}`,
      };
    case "payment_intent.settled":
      return { title: "Payment settled", detail: "Funds moved from pending to payable." };
    case "payment_intent.refunded":
      return { title: "Payment refunded", detail: `${money(object.amountRefunded)} of ${money(object.amountCaptured)} refunded in total` };
    case "payment_intent.failed":
      return {
        title: "Payment failed",
        detail: object.failureReason ? `Reason: ${String(object.failureReason).replace(/_/g, " ")}` : null,
      };
    case "payment_intent.expired":
      return { title: "Checkout expired", detail: "The payer did not pay before the deadline; nothing was charged." };
    case "payment_intent.canceled":
      return { title: "Payment canceled", detail: "Called off before any charge." };
    case "dispute.created":
      return {
        title: object.isInquiry ? "Inquiry opened" : "Payment disputed",
        detail: `${money(object.amount)} · ${String(object.reason ?? "").replace(/_/g, " ")}`,
      };
    case "dispute.updated":
      return object.evidenceSubmittedAt
        ? { title: "Evidence submitted", detail: "The card network reviews it." }
        : { title: "Evidence saved", detail: null };
    case "dispute.closed":
      return {
        title: `Dispute ${String(object.status ?? "closed")
          .replace(/^warning_/, "")
          .replace(/_/g, " ")}`,
        detail: disputeOutcome(object),
      };
    default:
      return { title: type, detail: null };
  }
}

/** What a closed dispute did to the balance. */
function disputeOutcome(object: Record<string, unknown>): string | null {
  const money = formatMoney(Number(object.amount ?? 0), String(object.currency ?? "USD"));
  if (object.status === "won") return `${money} and the fee returned to your balance.`;
  if (object.status === "lost") return `${money} and the fee stay with the payer's bank.`;
  return null;
}
