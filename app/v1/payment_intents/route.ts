import { api } from "@/lib/http/api";
import { listPaymentIntents } from "@/lib/checkouts/read-orders-and-payments";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, query }) => listPaymentIntents(tx, principal, query));

export const dynamic = "force-dynamic";
