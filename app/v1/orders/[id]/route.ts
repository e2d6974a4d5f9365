import { api } from "@/lib/http/api";
import { getOrder } from "@/lib/orders/get-order";

export const GET = api({ auth: "secret" }, ({ tx, principal, params }) => getOrder(tx, principal, params.id));

export const dynamic = "force-dynamic";
