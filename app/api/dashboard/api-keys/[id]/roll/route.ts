// POST /api/dashboard/api-keys/:id/roll { expiresInSeconds? }: a new key with the same settings (its secret in this
// response only); the old one stops at once or after the grace period (docs/restricted-keys.md). Logged as api_key_rolled.
import { rollApiKey, RollApiKeyBody } from "@/lib/merchants/api-keys";
import { dashboardApi } from "@/lib/dashboard/route";

export const dynamic = "force-dynamic";

export const POST = dashboardApi(
  { role: "developer", body: RollApiKeyBody, status: 201, secretInResponse: true },
  ({ tx, scope, params, body, dashboard, origin }) =>
    rollApiKey(tx, scope, params.id, body, { userId: dashboard.user.id, role: dashboard.role, origin }),
);
