import { api } from "@/lib/http/api";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { CreateRefundBody, ListRefundsQuery } from "@/lib/refunds/schemas";

export const POST = api(
  { auth: "secret", permission: ["refunds", "write"], body: CreateRefundBody, status: 201 },
  ({ tx, principal, body }) => createRefund(tx, principal, body),
);

export const GET = api({ auth: "secret", permission: ["refunds", "read"], query: ListRefundsQuery }, ({ tx, principal, query }) =>
  listRefunds(tx, principal, query),
);

export const dynamic = "force-dynamic";
