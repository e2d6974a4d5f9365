// POST /api/dashboard/paid-resources: a hosted paid resource made in the dashboard; the same createPaidResource (and body) as POST /v1/paid_resources.
import { dashboardApi } from "@/lib/dashboard/route";
import { createPaidResource } from "@/lib/paid-resources/create-paid-resource";
import { CreatePaidResourceBody } from "@/lib/paid-resources/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi(
  { role: "developer", body: CreatePaidResourceBody, status: 201, secretInResponse: true },
  ({ tx, scope, body }) => createPaidResource(tx, scope, body),
);
