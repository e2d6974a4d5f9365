// The one place a PaymentIntent is created: `requires_payment`, with a fresh id, for a checkout
// (open-checkout.ts) or a meter (a settlement, a retried payment, a funding). The owner's fields come in `data`.
import { sqlIn, type Db } from "../db";
import { Prisma, type PaymentIntent } from "../generated/prisma/client";
import { createId } from "../ids";
import type { PaymentSource } from "../payment-sources";
import { insertRow } from "../sql-model";

export type NewPaymentIntent = Omit<Prisma.PaymentIntentUncheckedCreateInput, "id" | "status" | "source"> & { source: PaymentSource };

export async function openPaymentIntent(tx: Db, data: NewPaymentIntent, id: string = createId("paymentIntent")): Promise<PaymentIntent> {
  const insert = plannedPaymentIntent(data, id);
  const [created] = await sqlIn(tx).rows<PaymentIntent>(insert.statement, insert.values);
  return created;
}

/** The same insert, planned to run inside another statement of the transaction (lib/sql-model.ts fuse). */
export function plannedPaymentIntent(data: NewPaymentIntent, id: string) {
  const now = new Date();
  const row = { createdAt: now, updatedAt: now, ...data, id, status: "requires_payment" };
  return insertRow("payment_intents", Prisma.PaymentIntentScalarFieldEnum, row);
}
