import { api } from "@/lib/http/api";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getEndpoint(tx, principal, params.id));

export const PATCH = api(operation.PATCH, ({ tx, principal, params, body }) => updateEndpoint(tx, principal, params.id, body));

export const DELETE = api(operation.DELETE, ({ tx, principal, params }) => deleteEndpoint(tx, principal, params.id));

export const dynamic = "force-dynamic";
