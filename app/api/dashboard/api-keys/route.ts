// POST /api/dashboard/api-keys: a new secret key in the dashboard's mode (the secret is in this response only).
import { createScopedApiKey, CreateApiKeyBody } from "@/lib/merchants/api-keys";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ body: CreateApiKeyBody, status: 201, secretInResponse: true }, ({ tx, scope, body }) =>
  createScopedApiKey(tx, scope, body),
);
