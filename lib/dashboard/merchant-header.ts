// Sent by dashboardFetch: the merchant the page was rendered for (its <meta>), so a tab left open on one
// merchant after a switch in another tab never acts on the newly selected one (lib/dashboard/route.ts).
// Pure, so the browser side imports it too.
export const MERCHANT_HEADER = "x-dashboard-merchant";
export const MERCHANT_META = "aps-dashboard-merchant";
