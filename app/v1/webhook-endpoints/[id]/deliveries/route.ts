import { api } from "@/lib/http/api";
import { listDeliveryAttempts } from "@/lib/webhooks/deliveries";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params, query }) => listDeliveryAttempts(tx, principal, params.id, query));

export const dynamic = "force-dynamic";
