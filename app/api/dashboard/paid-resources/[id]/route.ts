// PATCH /api/dashboard/paid-resources/:id (restore with `active`, edits), DELETE archives; as POST/DELETE /v1/paid_resources/:id.
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { UpdatePaidResourceBody } from "@/lib/paid-resources/schemas";
import { archivePaidResource, updatePaidResource } from "@/lib/paid-resources/update-paid-resource";

export const dynamic = "force-dynamic";

export const PATCH = dashboardApi({ role: "developer", body: UpdatePaidResourceBody }, ({ tx, scope, params, body }) =>
  updatePaidResource(tx, scope, params.id, body),
);

export const DELETE = dashboardApi({ role: "developer", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  archivePaidResource(tx, scope, params.id),
);
