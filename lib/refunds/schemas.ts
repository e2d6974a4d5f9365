import { z } from "zod";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";

export const CreateRefundBody = z
  .object({
    paymentIntentId: z.string().min(1).max(64).optional(),
    orderId: z.string().min(1).max(64).optional(),
    amount: z.number().int("must be an integer in minor units").min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    reason: z.string().min(1).max(500).optional(),
  })
  .strict()
  .refine((body) => body.paymentIntentId !== undefined || body.orderId !== undefined, {
    path: ["paymentIntentId"],
    message: "either paymentIntentId or orderId is required",
  });
export type CreateRefundInput = z.output<typeof CreateRefundBody>;

export const ListRefundsQuery = ListQuery.extend({
  paymentIntentId: z.string().min(1).max(64).optional(),
}).strict();
export type ListRefundsInput = z.output<typeof ListRefundsQuery>;

// Responses.

export const RefundObject = z
  .object({
    id: z.string(),
    object: z.literal("refund"),
    status: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    paymentIntentId: z.string(),
    orderId: z.string().nullable(),
    reason: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "Refund" });

export const RefundList = listOf(RefundObject, "RefundList");
