// POST /api/dashboard/api-keys/:id/revoke: the key stops working at once (401 on its next request).
import { z } from "zod";
import { revokeApiKey } from "@/lib/merchants/api-keys";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ body: z.object({}).strict() }, ({ tx, scope, params }) => revokeApiKey(tx, scope, params.id));
