// Hosted paid resources (docs/x402.md): also answering at /v1/x402/resources (docs/x402.md, "MPP").
import { api } from "@/lib/http/api";
import { createPaidResource } from "@/lib/paid-resources/create-paid-resource";
import { listPaidResources } from "@/lib/paid-resources/list-paid-resources";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createPaidResource(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listPaidResources(tx, principal, query));

export const dynamic = "force-dynamic";
