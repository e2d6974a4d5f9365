// Account settings: business name, the pay page's brand, and the dashboard's time zone; a link to the
// account's activity log (/dashboard/settings/activity).
import type { Metadata } from "next";
import Link from "next/link";
import { DetailList } from "@/components/dashboard/DetailList";
import { buttonClass } from "@/components/dashboard/Button";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { SettingsForm } from "@/components/dashboard/settings/SettingsForm";
import { getDb } from "@/lib/db";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { getSettings } from "@/lib/merchants/settings";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { scope, role } = await requireDashboard();
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
