// Settings, Security: two-factor sign-in (TOTP with recovery codes): set it up, or see it is on and turn
// it off. The user's own, the same in test and live mode (lib/two-factor/).
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { TurnOffTwoFactorButton } from "@/components/dashboard/security/TurnOffTwoFactorButton";
import { TwoFactorSetup } from "@/components/dashboard/security/TwoFactorSetup";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { requireDashboard } from "@/lib/dashboard/session";
import { getTwoFactorStatus } from "@/lib/two-factor/status";
import { RECOVERY_CODE_COUNT } from "@/lib/two-factor/recovery-codes";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage() {
  const dashboard = await requireDashboard();
  const status = await getTwoFactorStatus(getDb(), dashboard.user.id);
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href="/dashboard/settings" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Settings
          </Link>
        }
        title="Security"
        description={`How ${dashboard.user.email} signs in. The same in test and live mode.`}
      />
      <Section title="Two-factor authentication">
        {status.enabledAt ? (
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div className="flex flex-col gap-1 text-sm text-slate-700" data-testid="two-factor-on">
              <p>
                <strong className="font-semibold text-emerald-800">On</strong> since {formatDateTime(status.enabledAt)}. Sign-in asks for a
                code from your authenticator app after the password.
              </p>
              <p>{`Recovery codes left: ${status.recoveryCodesLeft} of ${RECOVERY_CODE_COUNT}.`}</p>
              {dashboard.twoFactor.verified ? null : (
                <p>This session has not used a code yet: sign out and in again with a code to make changes in live mode.</p>
              )}
            </div>
            <TurnOffTwoFactorButton />
          </div>
        ) : (
          <TwoFactorSetup />
        )}
      </Section>
    </>
  );
}
