// GET a paid resource, POST updates it, DELETE archives it (active: false; no longer served). Also at /v1/x402/resources/:id.
import { api } from "@/lib/http/api";
import { getPaidResource } from "@/lib/paid-resources/get-paid-resource";
import { archivePaidResource, updatePaidResource } from "@/lib/paid-resources/update-paid-resource";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getPaidResource(tx, principal, params.id));

export const POST = api(operation.POST, ({ tx, principal, params, body }) => updatePaidResource(tx, principal, params.id, body));

export const DELETE = api(operation.DELETE, ({ tx, principal, params }) => archivePaidResource(tx, principal, params.id));

export const dynamic = "force-dynamic";
