import { api } from "@/lib/http/api";
import { getOrder } from "@/lib/checkouts/read-orders-and-payments";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getOrder(tx, principal, params.id));

export const dynamic = "force-dynamic";
