import { api } from "@/lib/http/api";
import { replayFailedDeliveries } from "@/lib/webhooks/endpoint-health";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) => replayFailedDeliveries(tx, principal, params.id, body.since));

export const dynamic = "force-dynamic";
