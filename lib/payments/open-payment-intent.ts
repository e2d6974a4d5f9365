// The one place a PaymentIntent is created: `requires_payment`, with a fresh id, for a checkout
// (open-checkout.ts) or a meter (a settlement, a retried payment, a funding). The owner's fields come in `data`.
import { sqlIn, type Db } from "../db";
import { Prisma, type PaymentIntent } from "../generated/prisma/client";
import { createId } from "../ids";
import type { PaymentSource } from "../payment-sources";
import { insertRow } from "../sql-model";

export type NewPaymentIntent = Omit<Prisma.PaymentIntentUncheckedCreateInput, "id" | "status" | "source"> & { source: PaymentSource };

export async function openPaymentIntent(tx: Db, data: NewPaymentIntent, id: string = createId("paymentIntent")): Promise<PaymentIntent> {
  const now = new Date();
  const row = { createdAt: now, updatedAt: now, ...data, id, status: "requires_payment" };
  const insert = insertRow("payment_intents", Prisma.PaymentIntentScalarFieldEnum, row);
  const [created] = await sqlIn(tx).rows<PaymentIntent>(insert.statement, insert.values);
  return created;
}
