// POST /api/dashboard/x402/payout-addresses: an owner sets where live x402 payments on a network go (live mode,
// with two-factor sign-in: dashboardApi's live-write gate), through the same domain function as
// /v1/x402/payout_addresses (lib/x402/payout-addresses.ts: history kept, owners mailed, the activity logged).
import { dashboardApi } from "@/lib/dashboard/route";
import { SetPayoutAddressBody, setPayoutAddress } from "@/lib/x402/payout-addresses";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "owner", body: SetPayoutAddressBody, status: 201 }, ({ tx, dashboard, scope, body, origin }) =>
  setPayoutAddress(tx, { ...scope, apiKeyId: `dashboard:${dashboard.user.id}`, permissions: null }, body, {
    userId: dashboard.user.id,
    origin,
  }),
);
