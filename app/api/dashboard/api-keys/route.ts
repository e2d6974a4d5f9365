// POST /api/dashboard/api-keys: a new key in the dashboard's mode, a secret key or, with `permissions`, a restricted
// one (docs/restricted-keys.md); the secret is in this response only. Logged as api_key_created.
import { createScopedApiKey, CreateApiKeyBody } from "@/lib/merchants/api-keys";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi(
  { role: "developer", body: CreateApiKeyBody, status: 201, secretInResponse: true },
  ({ tx, scope, body, dashboard, origin }) =>
    createScopedApiKey(tx, scope, body, { userId: dashboard.user.id, role: dashboard.role, origin }),
);
