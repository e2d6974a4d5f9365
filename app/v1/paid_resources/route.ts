// Hosted paid resources (docs/x402.md): also answering at /v1/x402/resources (docs/x402.md, "MPP").
import { createPaidResource } from "@/lib/paid-resources/create-paid-resource";
import { listPaidResources } from "@/lib/paid-resources/list-paid-resources";
import { CreatePaidResourceBody, ListPaidResourcesQuery } from "@/lib/paid-resources/schemas";
import { api } from "@/lib/http/api";

export const POST = api(
  { auth: "secret", permission: ["paid_resources", "write"], body: CreatePaidResourceBody, status: 201 },
  ({ tx, principal, body }) => createPaidResource(tx, principal, body),
);

export const GET = api(
  { auth: "secret", permission: ["paid_resources", "read"], query: ListPaidResourcesQuery },
  ({ tx, principal, query }) => listPaidResources(tx, principal, query),
);

export const dynamic = "force-dynamic";
