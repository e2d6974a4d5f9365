import { api } from "@/lib/http/api";
import { listOrders } from "@/lib/orders/list-orders";
import { ListOrdersQuery } from "@/lib/orders/schemas";

export const GET = api({ auth: "secret", query: ListOrdersQuery }, ({ tx, principal, query }) => listOrders(tx, principal, query));

export const dynamic = "force-dynamic";
