// Test/live mode of the dashboard: a cookie the mode switch sets in the browser (it only chooses which of
// the merchant's own two data sets is shown; every query is still scoped to the signed-in merchant).
// Pure, so the client switch imports it too.
export const MODE_COOKIE = "aps_dashboard_mode";
/** Sent by dashboardFetch: the mode of the page the mutation came from (a stale tab never acts on the other mode). */
export const MODE_HEADER = "x-dashboard-mode";

export type DashboardMode = "test" | "live";

export function parseMode(value: string | null | undefined): DashboardMode {
  return value === "live" ? "live" : "test";
}
