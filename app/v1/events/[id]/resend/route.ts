import { api } from "@/lib/http/api";
import { resendEvent } from "@/lib/webhooks/deliveries";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) => resendEvent(tx, principal, params.id, body.webhookEndpointId));

export const dynamic = "force-dynamic";
