import { api } from "@/lib/http/api";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createEndpoint(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listEndpoints(tx, principal, query));

export const dynamic = "force-dynamic";
