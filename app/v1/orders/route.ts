import { api } from "@/lib/http/api";
import { ListOrdersQuery } from "@/lib/orders/schemas";
import { listOrdersAfterExpiry } from "@/lib/checkouts/read-after-expiry";

export const GET = api({ auth: "secret", permission: ["orders", "read"], query: ListOrdersQuery }, ({ tx, principal, query }) =>
  listOrdersAfterExpiry(tx, principal, query),
);

export const dynamic = "force-dynamic";
