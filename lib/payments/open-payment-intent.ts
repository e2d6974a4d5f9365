// The one place a PaymentIntent is created: `requires_payment`, with a fresh id, for a checkout
// (open-checkout.ts) or a meter (a settlement, a retried payment, a funding). The owner's fields come in `data`.
import type { Db } from "../db";
import type { PaymentIntent, Prisma } from "../generated/prisma/client";
import { createId } from "../ids";
import type { PaymentSource } from "../payment-sources";

export type NewPaymentIntent = Omit<Prisma.PaymentIntentUncheckedCreateInput, "id" | "status" | "source"> & { source: PaymentSource };

export function openPaymentIntent(tx: Db, data: NewPaymentIntent, id: string = createId("paymentIntent")): Promise<PaymentIntent> {
  return tx.paymentIntent.create({ data: { ...data, id, status: "requires_payment" } });
}
