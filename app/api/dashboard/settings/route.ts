// PATCH /api/dashboard/settings: the merchant's business name, pay page brand and time zone (lib/merchants/settings.ts).
import { dashboardApi } from "@/lib/dashboard/route";
import { UpdateSettingsBody, updateSettings } from "@/lib/merchants/settings";

export const dynamic = "force-dynamic";

export const PATCH = dashboardApi({ role: "admin", body: UpdateSettingsBody }, ({ tx, scope, body }) =>
  updateSettings(tx, scope.merchantId, body),
);
