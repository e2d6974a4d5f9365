// Account settings: business name, the pay page's brand, and the dashboard's time zone; in live mode, where
// live x402 payments go (payout addresses: owners set them); a link to the account's activity log.
import type { Metadata } from "next";
import Link from "next/link";
import { DetailList } from "@/components/dashboard/DetailList";
import { buttonClass } from "@/components/dashboard/Button";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { PayoutAddressForm } from "@/components/dashboard/settings/PayoutAddressForm";
import { SettingsForm } from "@/components/dashboard/settings/SettingsForm";
import { getDb } from "@/lib/db";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { getSettings } from "@/lib/merchants/settings";
import { liveNetworks } from "@/lib/chains/live-networks";
import { listPayoutAddresses } from "@/lib/x402/payout-addresses";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { scope, role } = await requireDashboard();
  const networks = liveNetworks().map((network) => network.caip2);
  const payoutAddresses =
    scope.livemode && networks.length ? (await listPayoutAddresses(getDb(), { ...scope, apiKeyId: "dashboard" })).data : [];
  const settings = await getSettings(getDb(), scope.merchantId);
  const timeZones = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your business as payers see it, and how the dashboard shows times. The same in test and live mode."
        actions={
          <Link href="/dashboard/settings/activity" className={buttonClass("secondary", "sm")}>
            Account activity
          </Link>
        }
      />
      <Section title="Business and branding">
        {hasRole(role, "admin") ? (
          <SettingsForm settings={settings} timeZones={timeZones} />
        ) : (
          <DetailList
            items={[
              { label: "Business name", value: settings.name },
              { label: "Brand colour", value: settings.brandColor ?? "Default" },
              { label: "Logo", value: settings.logoUrl ?? "None" },
              { label: "Time zone", value: settings.timeZone },
            ]}
          />
        )}
      </Section>
      <Section title="Live x402 payout addresses" className="mt-6">
        {!scope.livemode ? (
          <p className="text-sm text-slate-700">
            Live x402 payments are paid straight to your own wallet: switch to live mode to set where.
          </p>
        ) : networks.length === 0 ? (
          <p className="text-sm text-slate-700">
            This deployment settles live x402 payments on no network yet (its operator sets X402_RPC_URLS).
          </p>
        ) : (
          <>
            <DetailList
              items={networks.map((network) => ({
                label: network,
                value: payoutAddresses.find((row) => row.network === network)?.address ?? "Not set",
              }))}
            />
            {role === "owner" ? (
              <PayoutAddressForm networks={networks} />
            ) : (
              <p className="mt-3 text-sm text-slate-600">Only an owner can change where live money goes.</p>
            )}
          </>
        )}
      </Section>
      <Section title="Security" className="mt-6">
        <p className="text-sm text-slate-700">
          Two-factor authentication for your sign-in:{" "}
          <Link href="/dashboard/settings/security" className="font-medium text-indigo-700 underline underline-offset-2">
            Security settings
          </Link>
          .
        </p>
      </Section>
    </>
  );
}
