// Order lifecycle. The one place an order's status changes.
import type { Db } from "../db";
import type { Order, Prisma } from "../generated/prisma/client";
import { fromStatesOf, transitionConflict, type TransitionTable } from "../state-machine";

export const ORDER_STATUSES = ["pending", "paid", "partially_refunded", "refunded", "canceled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_TRANSITIONS: TransitionTable<OrderStatus> = {
  pending: ["paid", "canceled"],
  paid: ["partially_refunded", "refunded"],
  partially_refunded: ["partially_refunded", "refunded"],
  refunded: [],
  canceled: [],
};

type Changes = Omit<Prisma.OrderUpdateManyMutationInput, "status" | "id">;

export async function transitionOrder(tx: Db, id: string, to: OrderStatus, changes: Changes = {}): Promise<Order> {
  const from = fromStatesOf(ORDER_TRANSITIONS, to);
  const updated = await tx.order.updateManyAndReturn({
    where: { id, status: { in: from } },
    data: { ...changes, status: to, updatedAt: new Date() },
  });
  if (updated.length !== 1) {
    const current = await tx.order.findUnique({ where: { id }, select: { status: true } });
    throw transitionConflict("order", id, current?.status, to);
  }
  return updated[0];
}
