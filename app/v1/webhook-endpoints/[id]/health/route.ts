import { api } from "@/lib/http/api";
import { endpointHealth } from "@/lib/webhooks/endpoint-health";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => endpointHealth(tx, principal, params.id));

export const dynamic = "force-dynamic";
