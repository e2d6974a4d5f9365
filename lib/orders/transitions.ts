// Order lifecycle. The one place an order's status changes.
import type { Db } from "../db";
import { Prisma, type Order } from "../generated/prisma/client";
import { plannedTransition, predictedTransition, transition, type PlannedTransition, type PlannedWrite } from "../sql-model";
import type { TransitionTable } from "../state-machine";

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

const ORDERS = { name: "order", table: "orders", fields: Prisma.OrderScalarFieldEnum, transitions: ORDER_TRANSITIONS };

/** `before`: writes to run first in the same statement (lib/sql-model.ts fuse), e.g. the checkout's own transition. */
export function transitionOrder(
  tx: Db,
  id: string,
  to: OrderStatus,
  changes: Changes = {},
  before: readonly PlannedWrite[] = [],
): Promise<Order> {
  return transition<Order, OrderStatus>(tx, ORDERS, id, to, changes, before);
}

/**
 * The same transition, planned to run fused before another write (lib/sql-model.ts transition's `before`, checked
 * as this one checks its own); `take` gets the order as it moved it.
 */
export function plannedOrderTransition(id: string, to: OrderStatus, changes: Changes, take: (order: Order) => void): PlannedTransition {
  return plannedTransition<OrderStatus, Order>(ORDERS, id, to, changes, take);
}

/** The same transition of an order this transaction knows unchanged (lib/sql-model.ts predictedTransition): deferred, and its row. */
export function predictedOrderTransition(order: Order, to: OrderStatus, changes: Changes): { write: PlannedWrite; row: Order } {
  return predictedTransition<OrderStatus, Order>(ORDERS, order, to, changes);
}
