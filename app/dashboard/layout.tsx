// The dashboard frame: signed-in only (else /login), top bar with the merchant, the always-visible
// test/live switch and sign-out, a sidebar (the merchant switcher for users in several teams, and the
// pages the user's role may see), and the CSRF token, mode and merchant for dashboardFetch.
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { ModeSwitch } from "@/components/dashboard/ModeSwitch";
import { Providers } from "@/components/dashboard/Providers";
import { SearchBox } from "@/components/dashboard/SearchBox";
import { SideNav } from "@/components/dashboard/SideNav";
import { SignOutButton } from "@/components/dashboard/SignOutButton";
import { MerchantSwitcher } from "@/components/dashboard/team/MerchantSwitcher";
import { CSRF_META, MODE_META } from "@/lib/dashboard/client";
import { NAV_BADGE_CAP } from "@/lib/dashboard/nav";
import { MERCHANT_META } from "@/lib/dashboard/merchant-header";
import { requireDashboard } from "@/lib/dashboard/session";
import { needsTwoFactorForLive, TWO_FACTOR_SETUP_PATH } from "@/lib/dashboard/two-factor-gate";
import { getDb } from "@/lib/db";
import { listUserMerchants } from "@/lib/team/list-team";
import { countAwaitingResponse } from "@/lib/disputes/awaiting-response";
import { paymentsAvailable } from "@/lib/rails";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: { template: "%s · Dashboard", default: "Dashboard" }, robots: { index: false, follow: false } };

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const dashboard = await requireDashboard();
  const [merchants, disputesAwaiting] = await Promise.all([
    listUserMerchants(getDb(), dashboard.user.id),
    countAwaitingResponse(getDb(), dashboard.scope, NAV_BADGE_CAP),
  ]);
  return (
    <Providers>
      <meta name={CSRF_META} content={dashboard.csrfToken} />
      <meta name={MODE_META} content={dashboard.mode} />
      <meta name={MERCHANT_META} content={dashboard.scope.merchantId} />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      {dashboard.mode === "test" ? (
        <div className="bg-amber-500 px-4 py-1 text-center text-xs font-semibold text-amber-950" data-testid="test-mode-banner">
          Test mode: you are viewing test data. No real money moves.
        </div>
      ) : paymentsAvailable(true) ? null : (
        <div className="bg-slate-900 px-4 py-2 text-center text-sm text-white" data-testid="live-unavailable-banner" role="status">
          Live payments are not set up: no payment rail is configured (<code className="font-mono">LIVE_RAIL</code>). Live keys and
          checkouts work, but payers cannot pay live checkouts yet and the API&apos;s capture answers 502. Use test mode until a rail is
          connected.
        </div>
      )}
      {dashboard.mode === "live" && needsTwoFactorForLive(dashboard) ? (
        <div className="bg-indigo-50 px-4 py-2 text-center text-sm text-indigo-950" data-testid="two-factor-required-banner" role="status">
          {dashboard.twoFactor.enabled
            ? "To make changes in live mode, sign out and sign in again with your authentication code."
            : "Owners and admins need two-factor authentication to make changes in live mode."}{" "}
          {dashboard.twoFactor.enabled ? null : (
            <Link href={TWO_FACTOR_SETUP_PATH} className="font-semibold underline underline-offset-2">
              Set up two-factor authentication
            </Link>
          )}
        </div>
      ) : null}
      <div className="min-h-screen bg-slate-50">
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-2.5 md:px-6">
            <div className="flex min-w-0 items-center gap-3">
              <span
                aria-hidden
                className="flex h-7 w-7 shrink-0 items-center justify-center rounded-md bg-indigo-600 text-sm font-bold text-white"
              >
                {dashboard.merchantName.charAt(0).toUpperCase()}
              </span>
              <span className="truncate text-sm font-semibold text-slate-900" data-testid="merchant-name">
                {dashboard.merchantName}
              </span>
            </div>
            <div className="flex shrink-0 items-center gap-1 sm:gap-2">
              <ModeSwitch mode={dashboard.mode} />
              <span className="hidden text-sm text-slate-600 md:inline" data-testid="user-email">
                {dashboard.user.email}
              </span>
              <SignOutButton />
            </div>
          </div>
        </header>
        <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 md:flex-row md:px-6">
          <aside className="md:w-48 md:shrink-0">
            {merchants.length > 1 ? <MerchantSwitcher current={dashboard.scope.merchantId} merchants={merchants} /> : null}
            <SearchBox />
            <SideNav role={dashboard.role} badges={{ "/dashboard/disputes": disputesAwaiting }} />
          </aside>
          <main id="main" className="min-w-0 flex-1">
            {children}
          </main>
        </div>
      </div>
    </Providers>
  );
}
